package io.troupe.operators.sql;

import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;

/**
 * Three generated tables for the SQL tests, from one seed: orders (3,000 rows) over customers (200) over
 * regions (5), with ints, bigints, decimals, doubles, dates, booleans and strings, NULLs in every nullable column,
 * orders whose customer does not exist and customers without orders, so that every join kind has rows of
 * each sort.
 */
public final class SqlTables {

    static final String[] STATUSES = {"open", "closed", "shipped", "returned"};
    static final String[] REGIONS = {"north", "south", "east", "west", "centre"};
    private static final String[] NAMES = {"ada", "bob", "carla", "dan", "eve", "fatima", "gus", "hana", "ivan", "jo"};

    private SqlTables() {
    }

    public static List<Table> generate(long seed) {
        Random random = new Random(seed);
        TableBuilder orders = new TableBuilder("orders", Schema.of(
                new Field(null, "id", DataType.INT64, false),
                Field.of("cust", DataType.INT32),
                Field.of("amount", DataType.decimal(12, 2)),
                Field.of("odate", DataType.DATE),
                Field.of("status", DataType.VARCHAR),
                new Field(null, "qty", DataType.INT32, false)), 512);
        for (long id = 1; id <= 3000; id++) {
            orders.addRow(id,
                    maybe(random, 10, random.nextInt(250)),
                    maybe(random, 10, BigDecimal.valueOf(random.nextInt(100_000), 2)),
                    maybe(random, 10, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(400))),
                    maybe(random, 10, STATUSES[random.nextInt(STATUSES.length)]),
                    random.nextInt(10));
        }
        TableBuilder customers = new TableBuilder("customers", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                new Field(null, "name", DataType.VARCHAR, false),
                Field.of("region", DataType.VARCHAR),
                Field.of("since", DataType.DATE),
                Field.of("credit", DataType.decimal(9, 3)),
                Field.of("score", DataType.FLOAT64),
                Field.of("active", DataType.BOOLEAN)));
        for (int id = 0; id < 200; id++) {
            customers.addRow(id,
                    NAMES[random.nextInt(NAMES.length)] + id,
                    maybe(random, 8, REGIONS[random.nextInt(REGIONS.length)] + (id % 7 == 0 ? "x" : "")),
                    maybe(random, 8, LocalDate.of(2015, 1, 1).plusDays(random.nextInt(3000))),
                    maybe(random, 8, BigDecimal.valueOf(random.nextInt(2_000_000) - 500_000, 3)),
                    maybe(random, 8, random.nextDouble()),
                    maybe(random, 6, random.nextBoolean()));
        }
        TableBuilder regions = new TableBuilder("regions", Schema.of(
                new Field(null, "name", DataType.VARCHAR, false),
                new Field(null, "code", DataType.INT64, false)));
        for (int r = 0; r < REGIONS.length; r++) {
            regions.addRow(REGIONS[r], 100L + r);
        }
        return List.of(orders.build(), customers.build(), regions.build());
    }

    /** {@code value}, or NULL one time in {@code oneIn}. */
    private static Object maybe(Random random, int oneIn, Object value) {
        return random.nextInt(oneIn) == 0 ? null : value;
    }
}
