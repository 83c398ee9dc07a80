package io.troupe.operators.expr;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * {@code md5(s)} and {@code sha256(s)}: the digest of the string's UTF-8 bytes, or of a BLOB's bytes, as
 * lower-case hex text, as DuckDB gives both and PostgreSQL gives md5 ({@code sha256} there takes and returns
 * {@code bytea}; {@code encode(sha256(s::bytea), 'hex')} is this text). Each evaluation has its own
 * {@link MessageDigest}, which is not threadsafe.
 *
 * <p>Stateless; threadsafe.
 */
final class Digests {

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Digests() {
    }

    /** The kernel of the digest {@code algorithm} ("MD5", "SHA-256"), which every JVM has. */
    static Signature.Kernel kernel(String algorithm) {
        return (args, type, text) -> StringKernel.textWithState(args, text, () -> {
            MessageDigest digest = digest(algorithm);
            return (a, r, out) -> {
                digest.update(a.data(0), a.start(0, r), a.end(0, r) - a.start(0, r));
                byte[] hash = digest.digest();
                int at = out.reserve(2 * hash.length);
                byte[] o = out.data();
                for (byte b : hash) {
                    o[at++] = HEX[(b >> 4) & 0xF];
                    o[at++] = HEX[b & 0xF];
                }
            };
        });
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has " + algorithm, e);
        }
    }
}
