package io.troupe.formats.parquet;

import io.troupe.operators.types.Int128;
import io.troupe.operators.types.Timestamps;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.JulianFields;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conversions DuckDB does not write files for: decimals as big-endian bytes of every length (BINARY as well
 * as FIXED_LEN_BYTE_ARRAY, sign-extended past 16 bytes), INT96 timestamps, and nanoseconds rounded to
 * microseconds; each against java.math and java.time on random values.
 */
class ParquetTypesTest {

    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);

    @Test
    void shouldReadDecimalBytesOfEveryLengthAsTheirTwosComplementValue() {
        for (int i = 0; i < 20_000; i++) {
            BigInteger value = new BigInteger(1 + random.nextInt(127), random);
            value = random.nextBoolean() ? value.negate() : value;
            byte[] minimal = value.toByteArray();
            for (int length : new int[] {minimal.length, 16, 20}) {
                byte[] bytes = signExtended(minimal, Math.max(length, minimal.length));
                ByteBuffer buffer = Binary.fromConstantByteArray(bytes).toByteBuffer();
                assertEquals(value, Int128.toBigInteger(ParquetTypes.high(buffer), ParquetTypes.low(buffer)),
                        "seed " + seed + ", " + Arrays.toString(bytes));
                if (value.bitLength() < 64) {
                    assertEquals(value.longValueExact(), ParquetTypes.low(buffer), "seed " + seed);
                }
            }
        }
    }

    private static byte[] signExtended(byte[] minimal, int length) {
        byte[] out = new byte[length];
        Arrays.fill(out, 0, length - minimal.length, minimal[0] < 0 ? (byte) -1 : 0);
        System.arraycopy(minimal, 0, out, length - minimal.length, minimal.length);
        return out;
    }

    @Test
    void shouldReadInt96TimestampsAndRoundNanosecondsToTheNearestMicrosecond() {
        for (int i = 0; i < 20_000; i++) {
            LocalDateTime t = LocalDateTime.of(1 + random.nextInt(9998), 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000_000));
            long nanosOfDay = t.toLocalTime().toNanoOfDay();
            long julianDay = t.toLocalDate().getLong(JulianFields.JULIAN_DAY);
            byte[] int96 = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(nanosOfDay)
                    .putInt((int) julianDay).array();
            LocalDateTime rounded = t.plusNanos(500).truncatedTo(ChronoUnit.MICROS);
            assertEquals(Timestamps.fromLocalDateTime(rounded),
                    ParquetTypes.int96Micros(Binary.fromConstantByteArray(int96)), "seed " + seed + ", " + t);
            if (Math.abs(t.getYear() - 1970) < 250) {
                long epochNanos = ChronoUnit.NANOS.between(LocalDateTime.of(1970, 1, 1, 0, 0), t);
                assertEquals(Timestamps.fromLocalDateTime(rounded), ParquetTypes.micros(epochNanos, TimeUnit.NANOS),
                        "seed " + seed + ", " + t);
            }
            long millis = Timestamps.fromLocalDateTime(t.truncatedTo(ChronoUnit.MILLIS)) / 1000;
            assertEquals(millis * 1000, ParquetTypes.micros(millis, TimeUnit.MILLIS), "seed " + seed);
        }
    }
}
