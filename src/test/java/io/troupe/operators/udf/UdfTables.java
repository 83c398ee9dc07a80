package io.troupe.operators.udf;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The table the UDF tests read, generated from a seed: {@code sales(id, g, x, d, s, sold)}, about 1 in 8 values NULL. */
final class UdfTables {

    static final Schema SALES = Schema.of(Field.of("id", DataType.INT64), Field.of("g", DataType.INT32),
            Field.of("x", DataType.FLOAT64), Field.of("d", DataType.decimal(10, 2)), Field.of("s", DataType.VARCHAR),
            Field.of("sold", DataType.DATE));

    private static final List<String> WORDS = List.of("tea", "Coffee", "é日", "", "x_y");

    private UdfTables() {
    }

    /** {@code rows} rows of sales in batches of at most 1,000. */
    static Table sales(long seed, int rows) {
        Random random = new Random(seed);
        List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < rows; from += 1000) {
            int n = Math.min(1000, rows - from);
            List<VectorBuilder> columns = new ArrayList<>();
            for (Field f : SALES.fields()) {
                columns.add(new VectorBuilder(f.type(), n));
            }
            for (int i = 0; i < n; i++) {
                columns.get(0).appendObject((long) (from + i));
                columns.get(1).appendObject(nullOr(random, random.nextInt(7) - 2));
                columns.get(2).appendObject(nullOr(random, Math.round(random.nextGaussian() * 1e4) / 64.0));
                columns.get(3).appendObject(nullOr(random, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)));
                columns.get(4).appendObject(nullOr(random, WORDS.get(random.nextInt(WORDS.size()))));
                columns.get(5).appendObject(nullOr(random, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(800) - 400)));
            }
            batches.add(Batch.of(n, columns.stream().map(VectorBuilder::build).toArray(ColumnVector[]::new)));
        }
        return new Table("sales", SALES, batches);
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }
}
