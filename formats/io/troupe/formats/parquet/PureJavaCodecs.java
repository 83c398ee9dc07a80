package io.troupe.formats.parquet;

import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.hadoop.HadoopStreams;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lz4.Lz4HadoopStreams;
import io.airlift.compress.lzo.LzoHadoopStreams;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;

/**
 * The page decompressors of the Parquet reader, in pure Java: aircompressor's Snappy, Zstd, LZ4 (LZ4_RAW, and the
 * deprecated LZ4 in Hadoop's framing or as a raw block) and LZO, and the JDK's GZIP. parquet-java's own factory builds
 * Hadoop codecs (and snappy-java or zstd-jni, native code that can crash a host JVM); this one needs neither, so
 * Hadoop stays off the class path. BROTLI has no pure-Java decoder here and is refused naming the codec. The
 * reader decompresses only: asking for a compressor is an error.
 *
 * <p>Stateless and threadsafe: each decompressor is made per page and holds nothing between pages.
 */
final class PureJavaCodecs implements CompressionCodecFactory {

    static final PureJavaCodecs INSTANCE = new PureJavaCodecs();

    private PureJavaCodecs() {
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> new PageDecompressor(codec, (in, out) -> System.arraycopy(in, 0, out, 0, out.length));
            case SNAPPY -> block(codec, new SnappyDecompressor());
            case ZSTD -> block(codec, new ZstdDecompressor());
            case LZ4_RAW -> block(codec, new Lz4Decompressor());
            case LZ4 -> lz4(codec);
            case LZO -> framed(codec, new LzoHadoopStreams());
            case GZIP -> new PageDecompressor(codec, (in, out) -> {
                try (InputStream gzip = new GZIPInputStream(new java.io.ByteArrayInputStream(in))) {
                    readFully(gzip, out);
                }
            });
            default -> throw new UnsupportedOperationException("the " + codec
                    + " codec is not supported: the reader decompresses UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4, LZ4_RAW and LZO");
        };
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        throw new UnsupportedOperationException("the Parquet reader does not compress (" + codec + ")");
    }

    @Override
    public void release() {
    }

    private static PageDecompressor block(CompressionCodecName codec, Decompressor decompressor) {
        return new PageDecompressor(codec, (in, out) -> {
            int n = decompressor.decompress(in, 0, in.length, out, 0, out.length);
            if (n != out.length) {
                throw new IOException("page decompressed to " + n + " bytes, its header says " + out.length);
            }
        });
    }

    private static PageDecompressor framed(CompressionCodecName codec, HadoopStreams streams) {
        return new PageDecompressor(codec, (in, out) -> {
            try (InputStream framed = streams.createInputStream(new java.io.ByteArrayInputStream(in))) {
                readFully(framed, out);
            }
        });
    }

    /**
     * Parquet's deprecated LZ4: Hadoop's framing as parquet-java writes it, or a raw block as early parquet-cpp
     * wrote it (Arrow's reader takes both the same way: the framing first).
     */
    private static PageDecompressor lz4(CompressionCodecName codec) {
        PageDecompressor framed = framed(codec, new Lz4HadoopStreams());
        PageDecompressor raw = block(codec, new Lz4Decompressor());
        return new PageDecompressor(codec, (in, out) -> {
            try {
                framed.inflate().apply(in, out);
            } catch (IOException | MalformedInputException | IndexOutOfBoundsException e) {
                raw.inflate().apply(in, out);
            }
        });
    }

    private static void readFully(InputStream in, byte[] out) throws IOException {
        int n = in.readNBytes(out, 0, out.length);
        if (n != out.length) {
            throw new IOException("page decompressed to " + n + " bytes, its header says " + out.length);
        }
    }

    /** Decompresses one page's bytes into a buffer of the page's uncompressed size. */
    @FunctionalInterface
    private interface Inflate {
        void apply(byte[] compressed, byte[] out) throws IOException;
    }

    /** A decompressor over heap arrays; a direct buffer is copied in and out. */
    private record PageDecompressor(CompressionCodecName codec, Inflate inflate) implements BytesInputDecompressor {

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            return BytesInput.from(inflate(bytes.toByteArray(), uncompressedSize));
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            byte[] in = new byte[compressedSize];
            input.get(in);
            output.put(inflate(in, uncompressedSize));
        }

        private byte[] inflate(byte[] compressed, int uncompressedSize) throws IOException {
            byte[] out = new byte[uncompressedSize];
            try {
                inflate.apply(compressed, out);
            } catch (MalformedInputException | IndexOutOfBoundsException e) {
                throw new IOException("corrupt " + codec + " page: " + e.getMessage(), e);
            }
            return out;
        }

        @Override
        public void release() {
        }
    }
}
