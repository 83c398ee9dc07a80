package io.troupe.operators.expr;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.exec.QueryDataException;
import io.troupe.operators.plan.Call;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.PlanException;
import io.troupe.operators.sql.SqlException;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;
import io.troupe.oracle.ResultComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.troupe.operators.plan.Expr.call;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The string functions of the registry and the string operators (docs/sql/functions-string.md) against
 * DuckDB, over one random table of strings with NULLs, empty strings, leading and trailing spaces,
 * multi-byte characters (é, 日本, an emoji), newlines and LIKE's wildcards: each case as a plan ({@link
 * Expr#call}) and as SQL, at 1 and 2 workers, over the whole table and over the selection a filter leaves,
 * and the result types against DuckDB's {@code typeof()}.
 *
 * <p>Where DuckDB spells a call otherwise, the case gives DuckDB's SQL, which is where Troupe differs on
 * purpose, following PostgreSQL: {@code btrim} is DuckDB's {@code trim}; lpad and rpad without a fill are
 * PostgreSQL's; a bare backslash escapes in LIKE (DuckDB needs {@code ESCAPE '\'}); {@code .} matches a
 * newline in a regular expression (DuckDB needs flag {@code s}); flag {@code n} makes {@code ^} match
 * after a newline (DuckDB needs {@code (?m)}); initcap, which DuckDB lacks, is computed there from upper and
 * lower; substring without a length starts at the first character for a start before it, as PostgreSQL's
 * (DuckDB counts a negative start from the end, as Troupe's substring with a length does). SQL's POSITION is
 * an INTEGER, and so is length in SQL (Calcite's type and PostgreSQL's; strpos, Troupe's length in a plan and
 * DuckDB's: BIGINT).
 * {@link #shouldDifferFromDuckDbWherePostgreSqlDoes} shows the values that differ, with DuckDB's.
 */
class StringFunctionsVersusDuckDbTest {

    private static final int ROWS = 2500;
    private static final Schema SCHEMA = Schema.of(
            Field.of("id", DataType.INT32), Field.of("s", DataType.VARCHAR), Field.of("t", DataType.VARCHAR),
            Field.of("f", DataType.VARCHAR), Field.of("sep", DataType.VARCHAR), Field.of("p", DataType.VARCHAR),
            Field.of("n", DataType.INT32), Field.of("z", DataType.INT32), Field.of("k", DataType.INT32));
    private static final String WHERE = " WHERE id % 3 <> 0";
    /** The characters of s and t: LIKE's wildcards and escape, spaces, a newline, multi-byte ones. */
    private static final String ALPHABET = "aaabbcAABÉé日本😀 %_\\,\n";
    private static final List<String> FILLS = List.of("x", "ab", "é", "日本", " ", "😀-");
    private static final List<String> SEPARATORS = List.of(",", " ", "é", "ab", "%", "😀");
    /** Patterns that PostgreSQL, Java and DuckDB's RE2 read alike (DuckDB given flag s). */
    private static final List<String> PATTERNS = List.of("a", "a.b", "^a", "b$", "[a-c]+", "é|日", "[^a ]", "\\s",
            "(a|b)c?", "[[:upper:]]", "😀", "^$", "a{2}", "\\d*", ".", "%_", "\\\\", "[]a]", "x*", "[,%]+");
    private static final List<Integer> CODE_POINTS = List.of(65, 97, 233, 26085, 128512, 32, 10, 0x10FFFF, 127);

    /** initcap in DuckDB, which lacks it: each character upper case after a non-alphanumeric one, else lower. */
    private static final String DUCK_INITCAP = "CASE WHEN s IS NULL THEN NULL ELSE coalesce(list_aggregate("
            + "list_transform(range(length(s)), lambda i: CASE WHEN i = 0 OR NOT regexp_matches(substr(s, i, 1), "
            + "'^[\\pL\\pN]$') THEN upper(substr(s, i + 1, 1)) ELSE lower(substr(s, i + 1, 1)) END), 'string_agg', ''), "
            + "'') END";

    private static Troupe troupe;
    private static DuckDbOracle duck;

    /** One expression: the plan's, Troupe's SQL, and DuckDB's SQL where it differs. */
    private record Case(Expr expr, String sql, String duckSql) {
    }

    private static Case of(Expr expr, String sql) {
        return new Case(expr, sql, sql);
    }

    private static Case of(Expr expr, String sql, String duckSql) {
        return new Case(expr, sql, duckSql);
    }

    @BeforeAll
    static void load() throws Exception {
        troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0).withBatchSize(100));
        TableBuilder table = new TableBuilder("r", SCHEMA, 700);
        Random random = new Random(20261207);
        for (int id = 0; id < ROWS; id++) {
            table.addRow(id,
                    nullOr(random, text(random, 7)),
                    nullOr(random, text(random, 2)),
                    nullOr(random, FILLS.get(random.nextInt(FILLS.size()))),
                    nullOr(random, SEPARATORS.get(random.nextInt(SEPARATORS.size()))),
                    nullOr(random, PATTERNS.get(random.nextInt(PATTERNS.size()))),
                    nullOr(random, random.nextInt(11) - 3),
                    nullOr(random, (random.nextInt(4) + 1) * (random.nextBoolean() ? 1 : -1)),
                    nullOr(random, CODE_POINTS.get(random.nextInt(CODE_POINTS.size()))));
        }
        troupe.register(table.build());
        duck = new DuckDbOracle();
        duck.load(List.of(troupe.catalog().table("r")));
    }

    @AfterAll
    static void close() throws Exception {
        troupe.close();
        duck.close();
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    private static String text(Random random, int maxLength) {
        StringBuilder sb = new StringBuilder();
        int length = ALPHABET.codePointCount(0, ALPHABET.length());
        for (int n = random.nextInt(maxLength + 1); n > 0; n--) {
            sb.appendCodePoint(ALPHABET.codePointAt(ALPHABET.offsetByCodePoints(0, random.nextInt(length))));
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ the cases

    private static List<Case> cases() {
        Expr s = col("s");
        Expr t = col("t");
        return List.of(
                of(call("btrim", s), "btrim(s)", "trim(s)"),
                of(call("btrim", s, lit("a é")), "btrim(s, 'a é')", "trim(s, 'a é')"),
                of(call("btrim", s, t), "btrim(s, t)", "trim(s, t)"),
                of(call("ltrim", s), "ltrim(s)"),
                of(call("ltrim", s, lit("😀 a")), "ltrim(s, '😀 a')"),
                of(call("rtrim", s), "rtrim(s)"),
                of(call("rtrim", s, t), "rtrim(s, t)"),
                of(call("btrim", s, lit("é")), "TRIM(BOTH 'é' FROM s)", "trim(s, 'é')"),
                of(call("ltrim", s, lit(" ")), "TRIM(LEADING FROM s)", "ltrim(s)"),
                of(call("rtrim", s, t), "TRIM(TRAILING t FROM s)", "rtrim(s, t)"),
                of(call("btrim", s, lit(" ")), "TRIM(s)", "trim(s)"),
                of(call("lpad", s, col("n"), col("f")), "lpad(s, n, f)"),
                of(call("rpad", s, col("n"), col("f")), "rpad(s, n, f)"),
                of(call("lpad", s, lit(4)), "lpad(s, 4)", "lpad(s, 4, ' ')"),
                of(call("rpad", s, col("n")), "rpad(s, n)", "rpad(s, n, ' ')"),
                of(call("repeat", s, col("n")), "repeat(s, n)"),
                of(call("replace", s, lit("a"), lit("<é>")), "replace(s, 'a', '<é>')"),
                of(call("replace", s, t, col("f")), "replace(s, t, f)"),
                of(call("translate", s, lit("aé "), lit("x")), "translate(s, 'aé ', 'x')"),
                of(call("translate", s, t, col("f")), "translate(s, t, f)"),
                of(call("reverse", s), "reverse(s)"),
                of(call("left", s, col("n")), "left(s, n)"),
                of(call("right", s, col("n").negate()), "right(s, -n)"),
                of(call("strpos", s, t), "strpos(s, t)"),
                of(call("strpos", s, lit("é")), "POSITION('é' IN s)", "position('é' IN s)"),
                of(call("split_part", s, col("sep"), col("z")), "split_part(s, sep, z)"),
                of(call("split_part", s, lit(" "), lit(-1)), "split_part(s, ' ', -1)"),
                of(call("concat_ws", col("sep"), s, t, lit("!")), "concat_ws(sep, s, t, '!')"),
                of(call("concat_ws", lit(","), s), "concat_ws(',', s)"),
                of(call("starts_with", s, t), "starts_with(s, t)"),
                of(call("ends_with", s, t), "ends_with(s, t)"),
                of(call("suffix", s, lit("é")), "suffix(s, 'é')"),
                of(s.like("%a\\_%"), "s LIKE '%a\\_%'", "s LIKE '%a\\_%' ESCAPE '\\'"),
                of(s.like("%\\\\%"), "s LIKE '%\\\\%'", "s LIKE '%\\\\%' ESCAPE '\\'"),
                of(call("like_escape", s, lit("%!%%"), lit("!")), "s LIKE '%!%%' ESCAPE '!'"),
                of(call("like_escape", s, lit("_\\%"), lit("")), "like_escape(s, '_\\%', '')"),
                of(call("like_escape", s, lit("%a_b%"), lit("a")).not(), "s NOT LIKE '%a_b%' ESCAPE 'a'"),
                of(call("ilike_escape", s, lit("%a_"), lit("\\")), "s ILIKE '%a_'"),
                of(call("ilike_escape", s, lit("É%"), lit("\\")).not(), "s NOT ILIKE 'É%'"),
                of(call("ilike_escape", s, lit("%b!_%"), lit("!")), "s ILIKE '%b!_%' ESCAPE '!'"),
                of(call("regexp_matches", s, lit("a.b")), "regexp_matches(s, 'a.b')", "regexp_matches(s, 'a.b', 's')"),
                of(call("regexp_matches", s, lit("^[[:upper:]é]+$")), "regexp_matches(s, '^[[:upper:]é]+$')",
                        "regexp_matches(s, '^[[:upper:]é]+$', 's')"),
                of(call("regexp_matches", s, lit("É|日"), lit("i")), "regexp_matches(s, 'É|日', 'i')",
                        "regexp_matches(s, 'É|日', 'is')"),
                of(call("regexp_matches", s, col("p")), "regexp_matches(s, p)", "regexp_matches(s, p, 's')"),
                of(call("regexp_matches", s, lit("^b"), lit("n")), "regexp_matches(s, '^b', 'n')",
                        "regexp_matches(s, '(?m)^b')"),
                of(call("regexp_matches", s, lit("a+?")), "regexp_matches(s, 'a+?')", "regexp_matches(s, 'a+?', 's')"),
                of(call("regexp_replace", s, lit("[aé]"), lit("X")), "regexp_replace(s, '[aé]', 'X')",
                        "regexp_replace(s, '[aé]', 'X', 's')"),
                of(call("regexp_replace", s, lit("(.)(a)"), lit("<\\2\\1>"), lit("g")),
                        "regexp_replace(s, '(.)(a)', '<\\2\\1>', 'g')", "regexp_replace(s, '(.)(a)', '<\\2\\1>', 'gs')"),
                of(call("regexp_replace", s, lit("A"), lit("z"), lit("gi")), "regexp_replace(s, 'A', 'z', 'gi')",
                        "regexp_replace(s, 'A', 'z', 'gis')"),
                of(call("regexp_replace", s, col("p"), lit("-"), lit("g")), "regexp_replace(s, p, '-', 'g')",
                        "regexp_replace(s, p, '-', 'gs')"),
                of(call("regexp_replace", s, lit("b"), col("f")), "regexp_replace(s, 'b', f)",
                        "regexp_replace(s, 'b', f, 's')"),
                of(call("regexp_extract", s, lit("([a-c]+)(é?)"), lit(2)), "regexp_extract(s, '([a-c]+)(é?)', 2)"),
                of(call("regexp_extract", s, lit("[^ ]+")), "regexp_extract(s, '[^ ]+')",
                        "regexp_extract(s, '[^ ]+', 0, 's')"),
                of(call("regexp_extract", s, lit("b(.)"), lit(1), lit("i")), "regexp_extract(s, 'b(.)', 1, 'i')",
                        "regexp_extract(s, 'b(.)', 1, 'is')"),
                of(call("ascii", s), "ascii(s)"),
                of(call("chr", col("k")), "chr(k)"),
                of(call("md5", s), "md5(s)"),
                of(call("sha256", s), "sha256(s)"),
                of(call("initcap", s), "initcap(s)", DUCK_INITCAP),
                of(Expr.upper(s), "upper(s)"),
                of(Expr.lower(s), "lower(s)"),
                of(Expr.length(s), "length(s)"),
                of(Expr.length(s), "char_length(s)", "length(s)"),
                of(new Call(Function.SUBSTRING, List.of(s, col("n"), lit(2)), null), "substring(s, n, 2)"),
                of(Expr.substring(s, 2, Integer.MAX_VALUE), "substr(s, 2)"),
                of(new Call(Function.SUBSTRING, List.of(s, FROM_N, lit((long) Integer.MAX_VALUE)), null),
                        "substring(s FROM n)", "substring(s, CASE WHEN n < 1 THEN 1 ELSE n END)"),
                of(new Call(Function.SUBSTRING, List.of(s, FROM_N, lit((long) Integer.MAX_VALUE)), null),
                        "substr(s, n)", "substring(s, CASE WHEN n < 1 THEN 1 ELSE n END)"),
                of(Expr.concat(s, t), "concat(s, t)"),
                of(s.concatenate(t), "s || t"));
    }

    /** A start before the first character is the first, in substring without a length (PostgreSQL's rule). */
    private static final Expr FROM_N = Expr.caseWhen(col("n").lt(lit(1)), lit(1)).otherwise(col("n"));

    /** Where Troupe's result type differs from DuckDB's on purpose, by the case's SQL: its type in a plan and in SQL. */
    private static final Map<String, List<String>> OTHER_TYPES = Map.of(
            "POSITION('é' IN s)", List.of("BIGINT", "INTEGER"), "length(s)", List.of("BIGINT", "INTEGER"),
            "char_length(s)", List.of("BIGINT", "INTEGER"));

    // ------------------------------------------------------------------ the tests

    @Test
    void shouldComputeWhatDuckDbComputesAtOneAndTwoWorkers() throws Exception {
        for (int workers : new int[] {1, 2}) {
            compare(Plan.scan("r"), "", workers);
            // Two filters in a row: the functions see a selection of a selection.
            compare(Plan.scan("r").filter(col("id").mod(lit(3)).ne(lit(0))).filter(col("id").lt(lit(2000))),
                    WHERE + " AND id < 2000", workers);
        }
    }

    private static void compare(Plan input, String where, int workers) throws Exception {
        List<Case> cases = cases();
        List<Expr> exprs = new ArrayList<>(List.of(col("id")));
        StringBuilder select = new StringBuilder("SELECT id");
        StringBuilder duckSelect = new StringBuilder("SELECT id");
        for (int c = 0; c < cases.size(); c++) {
            exprs.add(cases.get(c).expr().as("e" + c));
            select.append(", ").append(cases.get(c).sql());
            duckSelect.append(", ").append(cases.get(c).duckSql());
        }
        String tail = " FROM r" + where + " ORDER BY id";
        List<List<Object>> expected = duck.query(duckSelect + tail).rows();
        QueryOptions options = QueryOptions.defaults().withWorkers(workers);
        List<List<Object>> fromPlan = byId(troupe.execute(input.project(exprs.toArray(new Expr[0])), options).rows());
        List<List<Object>> fromSql = byId(troupe.sql(select + tail, options).rows());
        assertTrue(expected.size() > ROWS / 2, "rows: " + expected.size());
        for (int c = 0; c < cases.size(); c++) {
            int column = c + 1;
            String what = cases.get(c).sql() + " at " + workers + " workers" + where;
            assertNull(ResultComparator.compare(column(expected, column), column(fromPlan, column), true), "plan " + what);
            assertNull(ResultComparator.compare(column(expected, column), column(fromSql, column), true), "SQL " + what);
        }
    }

    /** The id and one column of each row, so that a mismatch names its case. */
    private static List<List<Object>> column(List<List<Object>> rows, int column) {
        return rows.stream().map(row -> Arrays.asList(row.get(0), row.get(column))).toList();
    }

    private static List<List<Object>> byId(List<List<Object>> rows) {
        List<List<Object>> sorted = new ArrayList<>(DuckDbOracle.normalise(rows));
        sorted.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
        return sorted;
    }

    @Test
    void shouldTypeResultsAsDuckDbTypeofSays() throws Exception {
        List<Case> cases = cases();
        List<String> typeofs = cases.stream().map(c -> "typeof(" + c.duckSql() + ")").toList();
        List<Object> duckTypes = duck.query("SELECT " + String.join(", ", typeofs) + " FROM r LIMIT 1").rows().get(0);
        Schema plan = troupe.execute(Plan.scan("r").project(cases.stream().map(Case::expr).toArray(Expr[]::new))
                .limit(1)).schema();
        Schema sql = troupe.sql("SELECT " + String.join(", ", cases.stream().map(Case::sql).toList())
                + " FROM r LIMIT 1").schema();
        List<String> wrong = new ArrayList<>();
        for (int c = 0; c < cases.size(); c++) {
            String text = cases.get(c).sql();
            List<String> expected = OTHER_TYPES.getOrDefault(text, List.of((String) duckTypes.get(c), (String) duckTypes.get(c)));
            if (!expected.get(0).equals(plan.field(c).type().sqlName()) || !expected.get(1).equals(sql.field(c).type().sqlName())) {
                wrong.add(text + ": DuckDB " + duckTypes.get(c) + ", expected " + expected + ", plan "
                        + plan.field(c).type().sqlName() + ", SQL " + sql.field(c).type().sqlName());
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** A value where Troupe answers as PostgreSQL does and DuckDB otherwise. */
    private record Difference(String sql, Object troupe, String duckSql, Object duckdb) {
    }

    @Test
    void shouldDifferFromDuckDbWherePostgreSqlDoes() throws Exception {
        List<Difference> differences = List.of(
                // An empty delimiter: the whole string is one field (DuckDB splits into characters).
                new Difference("split_part('a,b', '', 1)", "a,b", "split_part('a,b', '', 1)", "a"),
                new Difference("split_part('a,b', '', 2)", "", "split_part('a,b', '', 2)", ","),
                // An empty fill leaves the string unpadded (DuckDB fails).
                new Difference("lpad('hi', 5, '')", "hi", "lpad('hi', 1, '')", "h"),
                // A bare backslash escapes in LIKE (DuckDB: a literal backslash unless ESCAPE names it).
                new Difference("'a\\b' LIKE 'a\\b'", false, "'a\\b' LIKE 'a\\b'", true),
                new Difference("'ab' LIKE 'a\\b'", true, "'ab' LIKE 'a\\b'", false),
                // . matches a newline (DuckDB: only with flag s).
                new Difference("regexp_matches(E'a\\nb', 'a.b')", true, "regexp_matches(E'a\\nb', 'a.b')", false),
                // In a replacement, \& is the match and \0 itself (DuckDB: \0 is the match, \& fails).
                new Difference("regexp_replace('abc', 'b', '[\\&\\0]')", "a[b\\0]c",
                        "regexp_replace('abc', 'b', '[\\0]')", "a[b]c"),
                // A group the pattern lacks is empty (DuckDB fails).
                new Difference("regexp_replace('abc', 'b', '<\\1>')", "a<>c", "regexp_replace('abc', '(b)', '<>')",
                        "a<>c"),
                // reverse reverses code points (DuckDB keeps a letter and its combining accent together).
                new Difference("reverse('xe\u0301')", "\u0301ex", "reverse('xe\u0301')", "e\u0301x"),
                // A value in the random table: chr of U+10FFFF is valid, and so is chr(0) in DuckDB only.
                new Difference("ascii(chr(1114111))", 1114111, "ascii(chr(0))", 0L));
        for (Difference d : differences) {
            String troupeSql = d.sql().replace("E'a\\nb'", "'a\nb'");
            assertEquals(d.troupe(), troupe.sql("SELECT " + troupeSql).rows().get(0).get(0), d.sql());
            assertEquals(d.duckdb(), duck.query("SELECT " + d.duckSql()).rows().get(0).get(0), d.duckSql());
        }
    }

    /** An error: the plan, the SQL, the message's start, its kind, and whether DuckDB fails too. */
    private record ErrorCase(Expr expr, String sql, String message, QueryDataException.Kind kind, boolean duckFails) {
    }

    @Test
    void shouldFailBadValuesAsPostgreSqlDoesNamingTheValueAndTheCall() throws Exception {
        QueryDataException.Kind argument = QueryDataException.Kind.INVALID_ARGUMENT;
        QueryDataException.Kind regex = QueryDataException.Kind.INVALID_REGULAR_EXPRESSION;
        List<ErrorCase> cases = List.of(
                new ErrorCase(call("split_part", col("s"), lit(","), lit(0)), "split_part(s, ',', 0)",
                        "field position must not be zero in split_part(s, ',', 0)", argument, false),
                new ErrorCase(call("chr", lit(0)), "chr(0)", "null character not permitted (0) in chr(0)", argument, false),
                new ErrorCase(call("chr", lit(-1)), "chr(-1)", "character number must be positive (-1) in chr(-1)",
                        argument, true),
                new ErrorCase(call("chr", lit(1114112)), "chr(1114112)",
                        "requested character too large for encoding: 1114112 in chr(1114112)", argument, true),
                new ErrorCase(call("chr", lit(55296)), "chr(55296)",
                        "requested character not valid for encoding: 55296 in chr(55296)", argument, true),
                new ErrorCase(call("repeat", col("s"), lit(2_000_000_000)), "repeat(s, 2000000000)",
                        "requested length too large", QueryDataException.Kind.OVERFLOW, true),
                new ErrorCase(call("lpad", col("s"), lit(1_500_000_000)), "lpad(s, 1500000000)",
                        "requested length too large", QueryDataException.Kind.OVERFLOW, true), // DuckDB: no lpad(s, n)
                new ErrorCase(call("regexp_matches", col("s"), lit("(")), "regexp_matches(s, '(')",
                        "invalid regular expression: Unclosed group (pattern '(') in regexp_matches(s, '(')", regex, true),
                new ErrorCase(call("regexp_replace", col("s"), lit("[a"), lit("x")), "regexp_replace(s, '[a', 'x')",
                        "invalid regular expression: brackets [] not balanced (pattern '[a')", regex, true),
                new ErrorCase(call("regexp_matches", col("s"), lit("(a)\\1")), "regexp_matches(s, '(a)\\1')",
                        "unsupported in a regular expression: the backreference \\1", regex, true),
                new ErrorCase(call("regexp_matches", col("s"), lit("a(?=b)")), "regexp_matches(s, 'a(?=b)')",
                        "unsupported in a regular expression: (?=", regex, true),
                new ErrorCase(call("regexp_matches", col("s"), lit("a\\b")), "regexp_matches(s, 'a\\b')",
                        "unsupported in a regular expression: \\b (a word boundary in Java and DuckDB, a backspace in "
                                + "PostgreSQL)", regex, false),
                new ErrorCase(call("regexp_matches", col("s"), lit("a.*?b+")), "regexp_matches(s, 'a.*?b+')",
                        "unsupported in a regular expression: non-greedy quantifiers beside greedy ones", regex, false),
                new ErrorCase(call("regexp_matches", col("s"), lit("a++")), "regexp_matches(s, 'a++')",
                        "unsupported in a regular expression: the possessive quantifier", regex, true),
                new ErrorCase(call("regexp_matches", col("s"), lit("a{256}")), "regexp_matches(s, 'a{256}')",
                        "invalid regular expression: invalid repetition count(s)", regex, false),
                // Java's backtracking would take hours here (RE2 and PostgreSQL answer at once): too complex.
                new ErrorCase(call("regexp_matches", col("s").concatenate(call("repeat", lit("a"), lit(40))),
                        lit("(.*a){10}x")), "regexp_matches(s || repeat('a', 40), '(.*a){10}x')",
                        "regular expression is too complex: more than", regex, false),
                // A pattern from a column, each row's invalid alike (without its backslashes, which could make a row's
                // error another's, as the workers race to the first failing row).
                new ErrorCase(call("regexp_matches", col("s"), call("translate", col("s"), lit("\\"), lit(""))
                        .concatenate(lit("("))), "regexp_matches(s, translate(s, '\\', '') || '(')",
                        "invalid regular expression", regex, true),
                new ErrorCase(call("regexp_matches", col("s"), lit("a"), lit("x")), "regexp_matches(s, 'a', 'x')",
                        "invalid regular expression option: \"x\" in regexp_matches(s, 'a', 'x')", argument, true),
                new ErrorCase(call("regexp_matches", col("s"), lit("a"), lit("g")), "regexp_matches(s, 'a', 'g')",
                        "regexp_matches does not support the \"global\" option", argument, true),
                new ErrorCase(call("like_escape", col("s"), lit("a!"), lit("!")), "s LIKE 'a!' ESCAPE '!'",
                        "LIKE pattern must not end with escape character (pattern 'a!')",
                        QueryDataException.Kind.INVALID_ESCAPE, true),
                new ErrorCase(col("s").like("a\\"), "s LIKE 'a\\'",
                        "LIKE pattern must not end with escape character (pattern 'a\\')",
                        QueryDataException.Kind.INVALID_ESCAPE, true),
                new ErrorCase(call("like_escape", col("s"), lit("a"), lit("!!")), "s LIKE 'a' ESCAPE '!!'",
                        "invalid escape string '!!': it must be empty or one character",
                        QueryDataException.Kind.INVALID_ESCAPE, true));
        Plan rows = Plan.scan("r").filter(col("s").isNotNull().and(col("s").ne(lit(""))));
        for (ErrorCase c : cases) {
            QueryDataException e = assertThrows(QueryDataException.class, () -> troupe.execute(rows.project(c.expr()
                    .as("v")), QueryOptions.defaults().withWorkers(2)), c.sql());
            assertTrue(e.getMessage().startsWith(c.message()), e.getMessage());
            assertEquals(c.kind(), e.kind(), c.sql());
            String sql = "SELECT " + c.sql() + " FROM r WHERE s <> ''";
            QueryDataException fromSql = assertThrows(QueryDataException.class, () -> troupe.sql(sql), sql);
            assertTrue(fromSql.getMessage().startsWith(c.message().split(" in ")[0]), fromSql.getMessage());
            boolean duckFails;
            try {
                duck.query(sql.replace("'a\\'", "'a\\' ESCAPE '\\'"));
                duckFails = false;
            } catch (SQLException failed) {
                duckFails = true;
            }
            assertEquals(c.duckFails(), duckFails, "DuckDB on " + sql);
        }
        SqlException escape = assertThrows(SqlException.class, () -> troupe.sql("SELECT s LIKE 'a' ESCAPE '' FROM r"));
        assertTrue(escape.getMessage().contains("like_escape(s, pattern, '')"), escape.getMessage());
        // No row reaches the call: a bad constant pattern fails nothing.
        assertEquals(List.of(), troupe.sql("SELECT regexp_matches(s, '(') FROM r WHERE id < 0").rows());
    }

    @Test
    void shouldNameTheFunctionAndItsSignaturesForWrongArguments() {
        Map<Expr, String> planErrors = Map.of(
                call("starts_with", col("s"), lit(1)), "no function starts_with(VARCHAR, INTEGER); starts_with takes "
                        + "(VARCHAR, VARCHAR) in starts_with(s, 1)",
                call("lpad", col("s")), "no function lpad(VARCHAR); lpad takes (VARCHAR, BIGINT), (VARCHAR, BIGINT, "
                        + "VARCHAR) in lpad(s)",
                call("regexp_matches", col("s"), lit("a"), col("t")), "regexp_matches takes a constant as argument 3 "
                        + "in regexp_matches(s, 'a', t)",
                call("ilike_escape", col("s"), col("t"), lit("!")), "ilike_escape takes a constant as argument 2",
                call("trim", col("s")), "unknown function 'trim' (did you mean 'btrim'",
                call("regexp_extract", col("s"), lit("a"), lit(-1)), "regexp_extract's group must not be negative");
        planErrors.forEach((expr, message) -> {
            PlanException e = assertThrows(PlanException.class,
                    () -> troupe.execute(Plan.scan("r").project(expr.as("v"))), message);
            assertTrue(e.getMessage().startsWith(message), e.getMessage());
        });
        Map<String, String> sqlErrors = Map.of(
                "SELECT concat_ws(',', 1) FROM r", "no function concat_ws(VARCHAR, INTEGER); concat_ws takes "
                        + "(VARCHAR, ...) at line 1, column 8",
                "SELECT s LIKE t FROM r", "LIKE with a pattern or escape that is not a literal");
        sqlErrors.forEach((sql, message) -> {
            SqlException e = assertThrows(SqlException.class, () -> troupe.sql(sql), sql);
            assertTrue(e.getMessage().contains(message), e.getMessage());
        });
    }

    @Test
    void shouldTypeSqlNullsAndParametersAsTheSignatureTheyMeet() throws Exception {
        var result = troupe.sql("SELECT lpad(NULL, 3), strpos(NULL, 'a'), regexp_matches('a', NULL), concat_ws(NULL, 'a')");
        assertEquals(List.of(DataType.VARCHAR, DataType.INT64, DataType.BOOLEAN, DataType.VARCHAR),
                result.schema().fields().stream().map(Field::type).toList());
        assertEquals(Arrays.asList(null, null, null, null), result.rows().get(0));
        String sql = "SELECT id, lpad(s, ?, '.'), regexp_replace(s, ?, '#', 'g') FROM r WHERE id < 50 ORDER BY id";
        List<List<Object>> expected = duck.query(sql.replace("'g'", "'gs'"), 6, "[aé]").rows();
        List<List<Object>> actual = DuckDbOracle.normalise(troupe.prepareSql(sql).execute(6, "[aé]").rows());
        assertNull(ResultComparator.compare(expected, actual, true));
    }

    @Test
    void shouldShowCallsAsTheyWereWrittenInExplain() {
        String plan = troupe.explainSql("SELECT TRIM(LEADING 'x' FROM s), s ILIKE 'a%', POSITION('a' IN s) FROM r");
        assertTrue(plan.contains("ltrim(r.s, 'x')") && plan.contains("ilike_escape(r.s, 'a%', '\\')")
                && plan.contains("strpos(r.s, 'a')"), plan);
    }

    @Test
    void shouldTranslatePostgreSqlPatternsIntoJavasSyntax() {
        Map<String, String> translated = Map.of(
                "a$", "a\\z",
                "[[:alpha:]_]+\\Z", "[\\p{Alpha}_]+\\z",
                "[]a[&]", "[\\]a\\[\\&]",
                "a{,2}\\v", "a\\{,2}\\x0B",
                "(?:ab)+?c*?", "(?:ab)+?c*?",
                "\\.\\é", "\\.é");
        translated.forEach((pattern, java) -> assertEquals(java, RegexDialect.translate(pattern, false), pattern));
        assertEquals("^[^a\\n]$", RegexDialect.translate("^[^a]$", true));
    }
}
