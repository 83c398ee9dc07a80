package io.troupe.operators.sql;

import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;

/**
 * A star schema of skewed sizes for the planner's tests, from one seed: a fact table sales (60,000 rows)
 * over dimensions days (730), items (2,000) and stores (10), with sales of days, items and stores that do
 * not exist, and NULL stores.
 */
final class StarTables {

    private StarTables() {
    }

    static List<Table> generate(long seed) {
        Random random = new Random(seed);
        TableBuilder sales = new TableBuilder("sales", Schema.of(
                new Field(null, "sold_day", DataType.INT32, false),
                new Field(null, "item", DataType.INT32, false),
                Field.of("store", DataType.INT32),
                new Field(null, "price", DataType.decimal(9, 2), false)));
        for (int i = 0; i < 60_000; i++) {
            sales.addRow(random.nextInt(740), random.nextInt(2_010),
                    random.nextInt(20) == 0 ? null : random.nextInt(12),
                    BigDecimal.valueOf(random.nextInt(50_000), 2));
        }
        TableBuilder days = new TableBuilder("days", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                new Field(null, "yr", DataType.INT32, false),
                new Field(null, "moy", DataType.INT32, false)));
        for (int d = 0; d < 730; d++) {
            days.addRow(d, 2000 + d / 365, 1 + d % 365 / 31);
        }
        TableBuilder items = new TableBuilder("items", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                new Field(null, "brand", DataType.INT32, false),
                new Field(null, "category", DataType.VARCHAR, false)));
        for (int i = 0; i < 2_000; i++) {
            items.addRow(i, i % 20, "category" + i % 7);
        }
        TableBuilder stores = new TableBuilder("stores", Schema.of(
                new Field(null, "id", DataType.INT32, false),
                new Field(null, "state", DataType.VARCHAR, false)));
        for (int s = 0; s < 10; s++) {
            stores.addRow(s, s % 2 == 0 ? "TN" : "GA");
        }
        return List.of(sales.build(), days.build(), items.build(), stores.build());
    }
}
