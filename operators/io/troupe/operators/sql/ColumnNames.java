package io.troupe.operators.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names of a query's result columns as PostgreSQL gives them where the statement gives none (its
 * {@code FigureColname}), in place of Calcite's {@code EXPR$0}: a column reference is named after its column, a
 * function call after the function ({@code count(*)} is {@code count}, {@code upper(name)} {@code upper}, an
 * aggregate with FILTER, OVER or IGNORE NULLS after its function), a CAST after what it casts when that has a name and else after
 * the type as PostgreSQL spells it ({@code int4}), a CASE after its ELSE when that has a name and else {@code case},
 * a scalar subquery after its column, EXISTS {@code exists}, and any other expression ({@code a + 1}, a literal)
 * {@code ?column?}, a typed literal after its type ({@code DATE '2024-01-31'} is {@code date}, an interval {@code
 * interval}); the columns of a VALUES are {@code column1}, {@code column2}, ... Names may repeat, as in
 * PostgreSQL ({@code SELECT a, a}). DuckDB names such a column after its text ({@code count_star()},
 * {@code (a + 1)}); Troupe follows PostgreSQL. Only the result's columns are named so: a subquery's columns keep
 * Calcite's names, so that {@code SELECT * FROM (SELECT count(*) FROM t)} still shows {@code EXPR$0}.
 *
 * <p>Calcite's validator rewrites the statement in place (the select list expanded, some calls rewritten, as
 * COALESCE into CASE), so the names are figured from the parsed statement, before validation ({@link #of}), keyed
 * by each select item's position, which the validated items keep; {@link #names} then reads the validated select
 * list. Not threadsafe: one statement's.
 */
final class ColumnNames {

    /** The aliases Calcite's validator derives for an expression without one. */
    private static final Pattern GENERATED = Pattern.compile("EXPR\\$\\d+");
    /** What PostgreSQL names a column it cannot name otherwise. */
    static final String NO_NAME = "?column?";
    /** PostgreSQL's own names of the types a CAST names a column after ({@code CAST(1 AS INTEGER)} is int4). */
    private static final Map<String, String> POSTGRES_TYPES = Map.ofEntries(Map.entry("INTEGER", "int4"),
            Map.entry("INT", "int4"), Map.entry("BIGINT", "int8"), Map.entry("SMALLINT", "int2"),
            Map.entry("TINYINT", "int2"), Map.entry("DOUBLE", "float8"), Map.entry("FLOAT", "float8"),
            Map.entry("REAL", "float4"), Map.entry("DECIMAL", "numeric"), Map.entry("NUMERIC", "numeric"),
            Map.entry("BOOLEAN", "bool"), Map.entry("CHAR", "bpchar"), Map.entry("VARCHAR", "varchar"),
            Map.entry("TIMESTAMP", "timestamp"), Map.entry("DATE", "date"), Map.entry("TIME", "time"),
            Map.entry("TIMESTAMP_TZ", "timestamptz"), Map.entry("TIMESTAMP_WITH_LOCAL_TIME_ZONE", "timestamptz"),
            Map.entry("STRING", "text"), Map.entry("SHORT", "int2"), Map.entry("SIGNED", "int4"),
            Map.entry("LONG", "int8"), Map.entry("LOGICAL", "bool"));

    /** The select whose items name the result (a set operation's first), as parsed; null for a VALUES. */
    private final SqlSelect naming;
    /** PostgreSQL's name of each select item without an alias, by the item's position. */
    private final Map<SqlParserPos, String> figured = new HashMap<>();
    /** The positions of the select items the statement gives an alias. */
    private final Set<SqlParserPos> aliased = new HashSet<>();

    private ColumnNames(SqlSelect naming) {
        this.naming = naming;
        if (naming != null) {
            for (SqlNode item : naming.getSelectList()) {
                if (item.getKind() == SqlKind.AS) {
                    aliased.add(item.getParserPosition());
                } else {
                    figured.put(item.getParserPosition(), figure(item).name);
                }
            }
        }
    }

    /** The names of {@code parsed}'s result, figured before Calcite validates it. */
    static ColumnNames of(SqlNode parsed) {
        return new ColumnNames(namingSelect(parsed));
    }

    /**
     * The result's names once validated: Calcite's {@code validated} names (of the validated row type), each
     * derived one ({@code EXPR$0}) replaced by PostgreSQL's, and a column reference named after its column (not
     * {@code a0}, which Calcite makes of a second {@code a}).
     */
    List<String> names(List<String> validated) {
        List<String> names = new ArrayList<>(validated);
        if (naming == null) {
            for (int i = 0; i < names.size(); i++) {
                if (GENERATED.matcher(names.get(i)).matches()) {
                    names.set(i, "column" + (i + 1));
                }
            }
            return names;
        }
        List<SqlNode> items = naming.getSelectList().getList();
        if (items.size() != names.size()) {
            return names;
        }
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            if (aliased.contains(item.getParserPosition())) {
                continue;
            }
            // Calcite names a second column reference "a" a0 (an alias of its own) and an expression EXPR$1.
            SqlNode expression = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            if (expression instanceof SqlIdentifier id) {
                // A subquery's column keeps its name, Calcite's too (SELECT * FROM (SELECT count(*) FROM t)).
                names.set(i, Util.last(id.names));
            } else if (GENERATED.matcher(names.get(i)).matches()) {
                names.set(i, figured.getOrDefault(item.getParserPosition(), NO_NAME));
            }
        }
        return names;
    }

    /** A name and how sure PostgreSQL is of it: 2 for a column or a function, 1 for a type or CASE, 0 for none. */
    private record Figure(String name, int strength) {
        static final Figure NONE = new Figure(NO_NAME, 0);
    }

    private static SqlSelect namingSelect(SqlNode node) {
        if (node instanceof SqlSelect select) {
            return select;
        }
        if (node instanceof SqlOrderBy orderBy) {
            return namingSelect(orderBy.query);
        }
        if (node instanceof SqlWith with) {
            return namingSelect(with.body);
        }
        if (node.isA(SqlKind.SET_QUERY)) {
            return namingSelect(((SqlCall) node).operand(0));
        }
        return null;
    }

    private static Figure figure(SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return id.isStar() ? Figure.NONE : new Figure(Util.last(id.names), 2);
        }
        if (node instanceof SqlCase sqlCase) {
            Figure otherwise = sqlCase.getElseOperand() == null ? Figure.NONE : figure(sqlCase.getElseOperand());
            return otherwise.strength == 2 ? otherwise : new Figure("case", 1);
        }
        if (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith
                || node.isA(SqlKind.SET_QUERY)) {
            // A scalar subquery: named after its one column, as that column is named in it.
            SqlSelect inner = namingSelect(node);
            return inner == null || inner.getSelectList().size() != 1 ? Figure.NONE
                    : new Figure(resultName(inner.getSelectList().get(0)), 2);
        }
        if (node instanceof SqlUnknownLiteral typed) {
            // DATE '2024-01-31': PostgreSQL's cast of the text to the type.
            String tag = typed.tag.toUpperCase(Locale.ROOT);
            return new Figure(POSTGRES_TYPES.getOrDefault(tag, tag.toLowerCase(Locale.ROOT)), 1);
        }
        if (node instanceof SqlIntervalLiteral) {
            return new Figure("interval", 1);
        }
        if (!(node instanceof SqlCall call)) {
            return Figure.NONE;
        }
        return switch (call.getKind()) {
            case AS -> Figure.NONE;
            case CAST -> {
                Figure cast = figure(call.operand(0));
                yield cast.strength == 2 ? cast : typeName(call.operand(1));
            }
            case OVER, FILTER, WITHIN_GROUP, WITHIN_DISTINCT, IGNORE_NULLS, RESPECT_NULLS -> figure(call.operand(0));
            case EXISTS -> new Figure("exists", 2);
            default -> call.getOperator() instanceof SqlFunction function
                    ? new Figure(function.getName().toLowerCase(Locale.ROOT), 2) : Figure.NONE;
        };
    }

    /** The name of a select item: its alias, or what it is named after. */
    private static String resultName(SqlNode item) {
        return item.getKind() == SqlKind.AS ? Util.last(((SqlIdentifier) ((SqlCall) item).operand(1)).names)
                : figure(item).name;
    }

    private static Figure typeName(SqlNode type) {
        if (type instanceof SqlIntervalQualifier) {
            return new Figure("interval", 1);
        }
        if (!(type instanceof SqlDataTypeSpec spec)) {
            return Figure.NONE;
        }
        String name = Util.last(spec.getTypeName().names).toUpperCase(Locale.ROOT);
        return new Figure(POSTGRES_TYPES.getOrDefault(name, name.toLowerCase(Locale.ROOT)), 1);
    }
}
