package io.troupe.formats.parquet;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

import java.lang.reflect.Constructor;
import java.util.Map;

/**
 * The reader's {@link ParquetReadOptions}, made without Hadoop. parquet-java's public builder, even over a
 * {@link PlainParquetConfiguration}, builds Hadoop's codec factory and asks Hadoop's ParquetInputFormat for a
 * record filter in its constructor (parquet-java issue 3780, open in 1.18.2), which fails where Hadoop is not on
 * the class path; so the options are made by their own (package-private) constructor, with
 * {@link PureJavaCodecs}. The constructor's shape is parquet-java 1.18's; ParquetFilesTest reads every codec
 * through it, so a parquet-java that changes it fails there.
 *
 * <p>Filters are off: the reader reads whole row groups and verifies no checksums it is not given.
 * Stateless; the options it makes are immutable and threadsafe.
 */
final class ReadOptions {

    private static final ParquetReadOptions OPTIONS = make();

    private ReadOptions() {
    }

    static ParquetReadOptions hadoopFree() {
        return OPTIONS;
    }

    private static ParquetReadOptions make() {
        try {
            Constructor<ParquetReadOptions> c = ParquetReadOptions.class.getDeclaredConstructor(
                    boolean.class, boolean.class, boolean.class, boolean.class, boolean.class, boolean.class,
                    boolean.class, boolean.class, boolean.class, FilterCompat.Filter.class,
                    ParquetMetadataConverter.MetadataFilter.class,
                    org.apache.parquet.compression.CompressionCodecFactory.class,
                    org.apache.parquet.bytes.ByteBufferAllocator.class, int.class, Map.class,
                    org.apache.parquet.crypto.FileDecryptionProperties.class,
                    org.apache.parquet.hadoop.ParquetMetricsCallback.class,
                    org.apache.parquet.conf.ParquetConfiguration.class);
            c.setAccessible(true);
            return c.newInstance(false, false, false, false, false, false, false, false, false,
                    FilterCompat.NOOP, ParquetMetadataConverter.NO_FILTER, PureJavaCodecs.INSTANCE,
                    HeapByteBufferAllocator.getInstance(), 8 * 1024 * 1024, Map.of(), null, null,
                    new PlainParquetConfiguration());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("parquet-java's ParquetReadOptions constructor is not the one of 1.18: "
                    + e, e);
        }
    }
}
