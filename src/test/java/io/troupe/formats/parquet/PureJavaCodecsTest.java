package io.troupe.formats.parquet;

import io.airlift.compress.Compressor;
import io.airlift.compress.hadoop.HadoopStreams;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4HadoopStreams;
import io.airlift.compress.lzo.LzoHadoopStreams;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each codec's pages, compressed here by aircompressor's encoders and the JDK's GZIP (the ones DuckDB does not
 * write included: the deprecated LZ4 in Hadoop's framing and as a raw block, and LZO), decompress to the bytes
 * they were made of, through both of a decompressor's entry points; BROTLI is refused naming it.
 */
class PureJavaCodecsTest {

    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);

    @Test
    void shouldDecompressPagesOfEveryCodecToTheirBytes() throws IOException {
        for (int i = 0; i < 20; i++) {
            byte[] page = page();
            check(CompressionCodecName.UNCOMPRESSED, page, page);
            check(CompressionCodecName.SNAPPY, page, block(new SnappyCompressor(), page));
            check(CompressionCodecName.ZSTD, page, block(new ZstdCompressor(), page));
            check(CompressionCodecName.LZ4_RAW, page, block(new Lz4Compressor(), page));
            check(CompressionCodecName.LZ4, page, block(new Lz4Compressor(), page));
            check(CompressionCodecName.LZ4, page, framed(new Lz4HadoopStreams(), page));
            check(CompressionCodecName.LZO, page, framed(new LzoHadoopStreams(), page));
            ByteArrayOutputStream gzip = new ByteArrayOutputStream();
            try (OutputStream out = new GZIPOutputStream(gzip)) {
                out.write(page);
            }
            check(CompressionCodecName.GZIP, page, gzip.toByteArray());
        }
    }

    @Test
    void shouldRefuseBrotliAndCorruptPagesNamingTheCodec() throws IOException {
        UnsupportedOperationException brotli = assertThrows(UnsupportedOperationException.class,
                () -> PureJavaCodecs.INSTANCE.getDecompressor(CompressionCodecName.BROTLI));
        assertTrue(brotli.getMessage().startsWith("the BROTLI codec is not supported"), brotli.getMessage());
        byte[] page = page();
        byte[] snappy = block(new SnappyCompressor(), page);
        Arrays.fill(snappy, snappy.length / 2, snappy.length, (byte) 0x7F);
        IOException corrupt = assertThrows(IOException.class, () -> PureJavaCodecs.INSTANCE
                .getDecompressor(CompressionCodecName.SNAPPY).decompress(BytesInput.from(snappy), page.length));
        assertTrue(corrupt.getMessage().contains("SNAPPY"), corrupt.getMessage());
    }

    /** Bytes that compress somewhat: runs of a few symbols with random ones between. */
    private byte[] page() {
        byte[] page = new byte[1 + random.nextInt(200_000)];
        for (int i = 0; i < page.length; i++) {
            page[i] = random.nextInt(4) == 0 ? (byte) random.nextInt() : (byte) (i / 64 % 7);
        }
        return page;
    }

    private void check(CompressionCodecName codec, byte[] page, byte[] compressed) throws IOException {
        var decompressor = PureJavaCodecs.INSTANCE.getDecompressor(codec);
        assertArrayEquals(page, decompressor.decompress(BytesInput.from(compressed), page.length).toByteArray(),
                codec + ", seed " + seed);
        ByteBuffer out = ByteBuffer.allocateDirect(page.length);
        decompressor.decompress(ByteBuffer.wrap(compressed), compressed.length, out, page.length);
        byte[] viaBuffers = new byte[page.length];
        out.flip().get(viaBuffers);
        assertArrayEquals(page, viaBuffers, codec + " through buffers, seed " + seed);
    }

    private static byte[] block(Compressor compressor, byte[] page) {
        byte[] out = new byte[compressor.maxCompressedLength(page.length)];
        int n = compressor.compress(page, 0, page.length, out, 0, out.length);
        return Arrays.copyOf(out, n);
    }

    private static byte[] framed(HadoopStreams streams, byte[] page) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = streams.createOutputStream(bytes)) {
            out.write(page);
        }
        return bytes.toByteArray();
    }
}
