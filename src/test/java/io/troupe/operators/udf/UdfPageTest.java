package io.troupe.operators.udf;

import io.troupe.actors.api.Troupe;
import io.troupe.operators.batch.DoubleVector;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;
import io.troupe.oracle.DuckDbOracle;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/udfs.md's Java examples are this class's code: each {@code ```java} block of the page is a run of lines of
 * this file (indentation aside), so it compiles, and the test runs it and checks the rows the page shows.
 */
class UdfPageTest {

    private static final Path PAGE = Path.of("docs", "udfs.md");
    private static final Path SOURCE = Path.of("src", "test", "java", "io", "troupe", "operators", "udf",
            "UdfPageTest.java");

    static QueryResult grossPrices(Troupe troupe) {
        troupe.sql("CREATE TABLE prices (item VARCHAR, price DOUBLE)");
        troupe.sql("INSERT INTO prices VALUES ('tea', 2.5), ('cake', NULL), ('pie', 4.0)");
        troupe.functions()
                .scalar("plus_tax", List.of(DataType.FLOAT64), DataType.FLOAT64,
                        args -> (Double) args[0] * 1.2)
                .vectorised("half", List.of(DataType.FLOAT64), DataType.FLOAT64, (args, batch) -> {
                    DoubleVector price = (DoubleVector) args[0];
                    double[] halves = new double[batch.rowCount()];
                    for (int i = 0; i < batch.size(); i++) {
                        int row = batch.row(i);
                        halves[row] = price.values()[row] / 2;
                    }
                    DoubleVector result = new DoubleVector(halves);
                    result.setValidity(price.validity() == null ? null : price.validity().clone());
                    return result;
                });
        return troupe.sql("SELECT item, plus_tax(price) AS gross, half(price) AS half FROM prices ORDER BY item");
    }

    static QueryResult grossPricesPlan(Troupe troupe) {
        return troupe.execute(Plan.scan("prices")
                .project(col("item"), Expr.call("plus_tax", col("price")).as("gross"),
                        Expr.call("half", col("price")).as("half"))
                .sort(col("item").asc()));
    }

    static QueryResult sumsOfSquares(Troupe troupe) {
        troupe.functions().aggregate("sum_sq", List.of(DataType.FLOAT64), DataType.FLOAT64,
                List.of(DataType.FLOAT64), new UserAggregate() {
                    @Override
                    public Object[] init() {
                        return new Object[] {null};
                    }

                    @Override
                    public void accumulate(Object[] state, Object[] arguments) {
                        double x = (Double) arguments[0];
                        state[0] = state[0] == null ? x * x : (Double) state[0] + x * x;
                    }

                    @Override
                    public void merge(Object[] state, Object[] other) {
                        if (other[0] != null) {
                            state[0] = state[0] == null ? other[0] : (Double) state[0] + (Double) other[0];
                        }
                    }

                    @Override
                    public Object finish(Object[] state) {
                        return state[0];
                    }
                });
        return troupe.sql("SELECT item, sum_sq(price) AS sq FROM prices GROUP BY item ORDER BY item");
    }

    static QueryResult sumOfSquaresPlan(Troupe troupe) {
        return troupe.execute(Plan.scan("prices")
                .aggregate(List.of(), Expr.call("sum_sq", col("price")).as("sq"), count(col("price")).as("n")));
    }

    @Test
    void theAggregateExampleGivesThePagesRows() {
        try (Troupe troupe = Troupe.start()) {
            grossPrices(troupe);
            assertEquals(List.of(Arrays.asList("cake", null), List.of("pie", 16.0), List.of("tea", 6.25)),
                    DuckDbOracle.normalise(sumsOfSquares(troupe).rows()));
            assertEquals(List.of(List.of(22.25, 2L)), DuckDbOracle.normalise(sumOfSquaresPlan(troupe).rows()));
        }
    }

    @Test
    void theScalarExampleGivesThePagesRows() {
        try (Troupe troupe = Troupe.start()) {
            List<List<Object>> expected = List.of(Arrays.asList("cake", null, null), List.of("pie", 4.8, 2.0),
                    List.of("tea", 3.0, 1.25));
            assertEquals(expected, DuckDbOracle.normalise(grossPrices(troupe).rows()));
            assertEquals(expected, DuckDbOracle.normalise(grossPricesPlan(troupe).rows()));
        }
    }

    @Test
    void everyJavaBlockOfThePageIsCodeOfThisClass() throws IOException {
        List<String> source = trimmed(Files.readAllLines(SOURCE));
        List<List<String>> blocks = javaBlocks(Files.readAllLines(PAGE));
        assertFalse(blocks.isEmpty(), PAGE + " has no java block");
        for (List<String> block : blocks) {
            assertTrue(Collections.indexOfSubList(source, trimmed(block)) >= 0,
                    PAGE + "'s block is not code of " + SOURCE + ":\n" + String.join("\n", block));
        }
    }

    private static List<List<String>> javaBlocks(List<String> lines) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> block = null;
        for (String line : lines) {
            if (block == null && line.trim().equals("```java")) {
                block = new ArrayList<>();
            } else if (block != null && line.trim().equals("```")) {
                blocks.add(block);
                block = null;
            } else if (block != null) {
                block.add(line);
            }
        }
        return blocks;
    }

    private static List<String> trimmed(List<String> lines) {
        return lines.stream().map(String::trim).filter(l -> !l.isEmpty()).toList();
    }
}
