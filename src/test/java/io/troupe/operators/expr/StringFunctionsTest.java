package io.troupe.operators.expr;

import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.troupe.operators.expr.Fixture.row;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.length;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.lower;
import static io.troupe.operators.plan.Expr.nullOf;
import static io.troupe.operators.plan.Expr.substring;
import static io.troupe.operators.plan.Expr.upper;
import static org.junit.jupiter.api.Assertions.assertEquals;

class StringFunctionsTest {

    private static final Schema SCHEMA = Schema.of(Field.of("s", DataType.VARCHAR), Field.of("i", DataType.INT32));

    private final Fixture f = Fixture.of(SCHEMA,
            row("hello", 2), row("héllo wörld", -3), row(null, 1), row("", null), row("😀ab", 0), row("a%b_c", 6));

    private static Fixture strings(String... values) {
        Object[][] rows = new Object[values.length][];
        for (int i = 0; i < values.length; i++) {
            rows[i] = row(values[i], 0);
        }
        return Fixture.of(SCHEMA, rows);
    }

    private static List<Object> like(Fixture f, String pattern) {
        return f.eval(col("s").like(pattern));
    }

    @Test
    void shouldMatchLikePatternsOfEveryShape() {
        Fixture g = strings("abc", "abcabc", "ab", "", "xabcx", "héllo", "h😀llo", "a%b", "ABC");
        //                         abc    abcabc ab     ""     xabcx  héllo  h😀llo a%b    ABC
        assertEquals(Arrays.asList(true, false, false, false, false, false, false, false, false), like(g, "abc"));
        assertEquals(Arrays.asList(true, true, false, false, false, false, false, false, false), like(g, "abc%"));
        assertEquals(Arrays.asList(true, true, false, false, false, false, false, false, false), like(g, "%bc"));
        assertEquals(Arrays.asList(true, true, false, false, true, false, false, false, false), like(g, "%bc%"));
        assertEquals(Arrays.asList(true, true, true, true, true, true, true, true, true), like(g, "%"));
        assertEquals(Arrays.asList(false, false, false, true, false, false, false, false, false), like(g, ""));
        assertEquals(Arrays.asList(true, true, true, false, false, false, false, true, false), like(g, "a%%"));
        assertEquals(Arrays.asList(false, true, false, false, false, false, false, false, false), like(g, "a%bc%bc"));
        assertEquals(Arrays.asList(true, true, false, false, true, false, false, false, false), like(g, "%a%c%"));
        assertEquals(Arrays.asList(true, true, true, false, false, false, false, true, false), like(g, "a%b%"));
        assertEquals(Arrays.asList(false, false, true, false, false, false, false, true, false), like(g, "a%b"));
        assertEquals(Arrays.asList(false, false, false, false, false, true, true, false, false), like(g, "h_llo"));
        assertEquals(Arrays.asList(true, false, false, false, false, false, false, true, true), like(g, "___"));
        assertEquals(Arrays.asList(true, true, false, false, true, false, false, false, false), like(g, "%_bc%"));
        assertEquals(Arrays.asList(false, false, false, false, false, true, true, false, false), like(g, "h%l_o"));
    }

    @Test
    void shouldGiveNullForNullValueOrPatternAndRespectSelection() {
        assertEquals(Arrays.asList(true, false, null), f.select(0, 1, 2).eval(col("s").like("h%o")));
        assertEquals(Arrays.asList(null, null), f.select(0, 3).eval(
                new Call(Function.LIKE, List.of(col("s"), nullOf(DataType.VARCHAR)), null)));
    }

    @Test
    void shouldRejectLikeOnOtherTypesOrPatterns() {
        assertEquals("LIKE needs a VARCHAR value, got INT32 in (i LIKE 'a%')", f.typeError(col("i").like("a%")));
        assertEquals("the LIKE pattern must be a VARCHAR literal, got s in (s LIKE s)", f.typeError(
                new Call(Function.LIKE, List.of(col("s"), col("s")), null)));
    }

    @Test
    void shouldTakeSubstringsInCodePointsLikeDuckDb() {
        Fixture hello = strings("hello");
        assertEquals("he", hello.one(substring(col("s"), 0, 3)));
        assertEquals("", hello.one(substring(col("s"), 0, 1)));
        assertEquals("o", hello.one(substring(col("s"), -1, 3)));
        assertEquals("", hello.one(substring(col("s"), -10, 3)));
        assertEquals("h", hello.one(substring(col("s"), 2, -1)));
        assertEquals("l", hello.one(substring(col("s"), -2, -1)));
        assertEquals("lo", hello.one(substring(col("s"), 6, -2)));
        assertEquals("llo", hello.one(substring(col("s"), 3, 100)));
        assertEquals("", hello.one(substring(col("s"), 10, 2)));
        assertEquals("", hello.one(substring(col("s"), 2, 0)));
        assertEquals(Arrays.asList("el", "él", null, "", "ab", "%b"), f.eval(substring(col("s"), 2, 2)));
        // The start from a column: a NULL start gives NULL.
        assertEquals(Arrays.asList("el", "rl", null, null, "😀", ""), f.eval(substringFrom("i", 2)));
    }

    private static Expr substringFrom(String column, int length) {
        return new Call(Function.SUBSTRING, List.of(col("s"), col(column), lit(length)), null);
    }

    @Test
    void shouldMapCaseAndCountCodePoints() {
        assertEquals(Arrays.asList("HELLO", "HÉLLO WÖRLD", null, "", "😀AB", "A%B_C"), f.eval(upper(col("s"))));
        assertEquals(Arrays.asList("hello", "héllo wörld", null, "", "😀ab", "a%b_c"), f.eval(lower(upper(col("s")))));
        assertEquals(Arrays.asList(5L, 11L, null, 0L, 3L, 5L), f.eval(length(col("s"))));
        assertEquals("ß", strings("ß").one(upper(col("s"))));
        assertEquals("i", strings("İ").one(lower(col("s"))));
        assertEquals("length needs a VARCHAR or BLOB argument, got INT32 in length(i)", f.typeError(length(col("i"))));
        assertEquals("upper needs a VARCHAR argument, got INT32 in upper(i)", f.typeError(upper(col("i"))));
        assertEquals("substring needs (VARCHAR or BLOB, integer, integer), got (INT32, INT32, INT32) in "
                + "substring(i, 1, 2)",
                f.typeError(substring(col("i"), 1, 2)));
    }

    @Test
    void shouldConcatenateWithSqlNullRulesForTheOperatorAndSkipNullsInConcat() {
        // f's rows: hello, héllo wörld, NULL, "", 😀ab, a%b_c
        assertEquals(Arrays.asList("hello-", "héllo wörld-", null, "-", "😀ab-", "a%b_c-"),
                f.eval(col("s").concatenate(lit("-"))));
        assertEquals(Arrays.asList("hellohello", "héllo wörldhéllo wörld", null, "", "😀ab😀ab", "a%b_ca%b_c"),
                f.eval(col("s").concatenate(col("s"))));
        assertEquals(Arrays.asList("<hello>", "<héllo wörld>", "<>", "<>", "<😀ab>", "<a%b_c>"),
                f.eval(Expr.concat(lit("<"), col("s"), lit(">"))));
        // concat of NULLs only is the empty string, as DuckDB's and PostgreSQL's.
        assertEquals(Arrays.asList("hello", "héllo wörld", "", "", "😀ab", "a%b_c"),
                f.eval(Expr.concat(nullOf(DataType.VARCHAR), col("s"))));
        assertEquals(Arrays.asList(null, null), f.select(0, 3).eval(col("s").concatenate(nullOf(DataType.VARCHAR))));
        // A selection: the rows left out stay empty, the selected ones come out in place.
        assertEquals(Arrays.asList("héllo wörld!", "!", "a%b_c!"), f.select(1, 3, 5).eval(Expr.concat(col("s"), lit("!"))));
        assertEquals("ab,c", strings("x").one(Expr.concat(lit("ab"), lit(","), lit("c"))));
        assertEquals("concat needs VARCHAR arguments, got INT32 (i) in concat(s, i)",
                f.typeError(Expr.concat(col("s"), col("i"))));
        assertEquals("|| needs VARCHAR or BLOB arguments, all of one type, got INT32 (i) in (i || s)",
                f.typeError(col("i").concatenate(col("s"))));
    }
}
