package io.troupe.operators.sql;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One {@code INSERT INTO name [(columns)] VALUES (...), ... | query}: Calcite parses it; a VALUES list of
 * literals (what scripts and test corpora write, row by row) is read straight from the syntax tree, anything
 * else (a query, expressions) is planned and run as the query it is. Each value is cast to its column's type
 * ({@link StoredValues}); one that does not fit, or a NULL for a NOT NULL column, fails the whole statement,
 * naming the row and the column, and nothing is stored. Columns the statement leaves out are NULL.
 *
 * <p>The new rows join the table's last chunk when it is not full (so that row-by-row inserts do not leave a
 * table of one-row morsels) and its full chunks are shared with the old table. One per statement; not threadsafe.
 */
final class Insert {

    private final String sql;
    private final SqlErrors errors;
    private final SqlPlanner planner;
    private final Function<Plan, QueryResult> runner;

    Insert(String sql, SqlErrors errors, SqlPlanner planner, Function<Plan, QueryResult> runner) {
        this.sql = sql;
        this.errors = errors;
        this.planner = planner;
        this.runner = runner;
    }

    /**
     * Computes the rows and hands {@code append} the table's name and how to grow the table with them.
     *
     * @return the number of rows inserted
     */
    long into(Catalog catalog, BiConsumer<String, UnaryOperator<Table>> append) {
        SqlInsert insert = parse();
        if (!(insert.getTargetTable() instanceof SqlIdentifier target)) {
            throw errors.unsupported("INSERT into " + insert.getTargetTable(),
                    insert.getTargetTable().getParserPosition(), null);
        }
        String name = target.names.get(target.names.size() - 1);
        if (!catalog.contains(name)) {
            throw at(SqlException.Kind.UNKNOWN_TABLE, "unknown table '" + name + "'", target.getParserPosition());
        }
        Schema schema = catalog.table(name).schema();
        int[] targets = targets(insert, schema);
        List<Object[]> source = literalRows(insert.getSource());
        if (source == null) {
            source = query(insert.getSource());
        }
        List<Object[]> rows = new ArrayList<>(source.size());
        for (int r = 0; r < source.size(); r++) {
            rows.add(row(name, schema, targets, source.get(r), r + 1));
        }
        append.accept(name, old -> {
            if (!old.schema().equals(schema)) {
                throw new SqlException(SqlException.Kind.INVALID, "INSERT INTO " + name + ": the table was dropped "
                        + "and created again with other columns while the statement ran", 0, 0, null);
            }
            return appended(old, rows);
        });
        return rows.size();
    }

    private SqlInsert parse() {
        try {
            SqlNode parsed = SqlParser.create(SeriesFunctions.quoteRange(sql), SqlPlanner.PARSER).parseStmt();
            if (!(parsed instanceof SqlInsert insert) || parsed.getKind() != SqlKind.INSERT) {
                throw errors.unsupported(parsed.getKind() + " statements", parsed.getParserPosition(), null);
            }
            return insert;
        } catch (SqlParseException e) {
            throw errors.syntax(e);
        }
    }

    /** The table's column index of each value of a row, in the statement's order. */
    private int[] targets(SqlInsert insert, Schema schema) {
        if (insert.getTargetColumnList() == null) {
            int[] all = new int[schema.size()];
            Arrays.setAll(all, i -> i);
            return all;
        }
        List<SqlNode> named = insert.getTargetColumnList().getList();
        int[] targets = new int[named.size()];
        for (int i = 0; i < targets.length; i++) {
            SqlIdentifier column = (SqlIdentifier) named.get(i);
            String columnName = column.names.get(column.names.size() - 1);
            targets[i] = -1;
            for (int c = 0; c < schema.size(); c++) {
                if (schema.field(c).name().equalsIgnoreCase(columnName)) {
                    targets[i] = c;
                }
            }
            if (targets[i] < 0) {
                throw at(SqlException.Kind.UNKNOWN_COLUMN, "unknown column '" + columnName + "'; the table's columns: "
                        + schema.describe(), column.getParserPosition());
            }
            for (int j = 0; j < i; j++) {
                if (targets[j] == targets[i]) {
                    throw at(SqlException.Kind.INVALID, "column '" + columnName + "' is named twice",
                            column.getParserPosition());
                }
            }
        }
        return targets;
    }

    /** One row of the table: the values cast to their columns' types, NULL in the columns not named. */
    private Object[] row(String table, Schema schema, int[] targets, Object[] values, int number) {
        if (values.length != targets.length) {
            throw new SqlException(SqlException.Kind.INVALID, "INSERT INTO " + table + ", row " + number + ": "
                    + values.length + " values for " + targets.length + " columns", 0, 0, null);
        }
        Object[] row = new Object[schema.size()];
        for (int i = 0; i < targets.length; i++) {
            Field f = schema.field(targets[i]);
            try {
                row[targets[i]] = StoredValues.cast(values[i], f.type(), planner.zone());
            } catch (IllegalArgumentException e) {
                throw new SqlException(SqlException.Kind.VALUE, "INSERT INTO " + table + ", row " + number
                        + ", column " + f.name() + " (" + f.type().sqlName() + "): " + e.getMessage(),
                        0, 0, null);
            }
        }
        for (int c = 0; c < row.length; c++) {
            Field f = schema.field(c);
            if (row[c] == null && !f.nullable()) {
                throw new SqlException(SqlException.Kind.NOT_NULL, "INSERT INTO " + table + ", row " + number
                        + ", column " + f.name() + " (" + f.type().sqlName() + " NOT NULL): NULL in a NOT "
                        + "NULL column", 0, 0, null);
            }
        }
        return row;
    }

    /** The rows of a VALUES list whose every value is a literal; null for any other source. */
    private static List<Object[]> literalRows(SqlNode source) {
        if (source.getKind() != SqlKind.VALUES) {
            return null;
        }
        List<Object[]> rows = new ArrayList<>();
        for (SqlNode row : ((SqlCall) source).getOperandList()) {
            if (row.getKind() != SqlKind.ROW) {
                return null;
            }
            List<SqlNode> operands = ((SqlCall) row).getOperandList();
            Object[] values = new Object[operands.size()];
            for (int i = 0; i < values.length; i++) {
                Object value = literal(operands.get(i));
                if (value == Unknown.VALUE) {
                    return null;
                }
                values[i] = value;
            }
            rows.add(values);
        }
        return rows;
    }

    /** Marks a value that is not a literal read here. */
    private enum Unknown { VALUE }

    /** A literal's Java value (an integer as a Long when it fits one), or {@link Unknown#VALUE}. */
    private static Object literal(SqlNode node) {
        if (node instanceof SqlBasicCall call && call.getOperandList().size() == 1
                && (call.getKind() == SqlKind.MINUS_PREFIX || call.getKind() == SqlKind.PLUS_PREFIX)
                && call.operand(0) instanceof SqlNumericLiteral number) {
            Object value = literal(number);
            if (call.getKind() == SqlKind.PLUS_PREFIX) {
                return value;
            }
            return value instanceof Long l && l != Long.MIN_VALUE ? (Object) (-l)
                    : value instanceof Double d ? (Object) (-d) : ((BigDecimal) value).negate();
        }
        if (node instanceof SqlNumericLiteral number) {
            if (!number.isExact()) {
                return number.getValueAs(Double.class);
            }
            BigDecimal value = number.getValueAs(BigDecimal.class);
            boolean integral = value.scale() <= 0 && value.toBigInteger().bitLength() < 64;
            return integral ? (Object) value.longValueExact() : value;
        }
        if (node instanceof SqlCharStringLiteral string) {
            return string.getValueAs(String.class);
        }
        if (node instanceof SqlLiteral literal) {
            SqlTypeName type = literal.getTypeName();
            if (type == SqlTypeName.NULL) {
                return null;
            }
            if (type == SqlTypeName.BOOLEAN) {
                return literal.getValueAs(Boolean.class);
            }
        }
        if (node instanceof SqlUnknownLiteral typed && typed.tag.equalsIgnoreCase("DATE")) {
            // DATE '2024-01-31': Calcite's parser leaves a typed literal's text to the validator.
            try {
                return LocalDate.parse(typed.getValue());
            } catch (DateTimeParseException e) {
                return Unknown.VALUE;
            }
        }
        return Unknown.VALUE;
    }

    /** The rows of the source planned and run as a query, the statement blanked around it to keep positions. */
    private List<Object[]> query(SqlNode source) {
        SqlParserPos pos = source.getParserPosition();
        int start = offset(pos.getLineNum(), pos.getColumnNum());
        int end = offset(pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
        StringBuilder text = new StringBuilder(sql);
        for (int i = 0; i < text.length(); i++) {
            if ((i < start || i >= end) && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                text.setCharAt(i, ' ');
            }
        }
        QueryResult result = runner.apply(planner.plan(text.toString()));
        List<Object[]> rows = new ArrayList<>((int) result.rowCount());
        for (Batch b : result.batches()) {
            for (int i = 0; i < b.size(); i++) {
                rows.add(b.rowObjects(i));
            }
        }
        return rows;
    }

    /** The offset in the statement of a 1-based line and column. */
    private int offset(int line, int column) {
        int offset = 0;
        for (int l = 1; l < line; l++) {
            offset = sql.indexOf('\n', offset) + 1;
        }
        return Math.min(sql.length(), offset + column - 1);
    }

    private SqlException at(SqlException.Kind kind, String message, SqlParserPos pos) {
        return errors.at(kind, message, pos.getLineNum(), pos.getColumnNum());
    }

    /** {@code old}'s rows, then {@code rows}: its full chunks shared, its last chunk refilled when not full. */
    private static Table appended(Table old, List<Object[]> rows) {
        List<Batch> chunks = new ArrayList<>(old.chunks());
        TableBuilder builder = new TableBuilder(old.name(), old.schema());
        if (!chunks.isEmpty() && chunks.get(chunks.size() - 1).size() < TableBuilder.DEFAULT_CHUNK_ROWS) {
            Batch last = chunks.remove(chunks.size() - 1);
            for (int i = 0; i < last.size(); i++) {
                builder.addRow(last.rowObjects(i));
            }
        }
        for (Object[] row : rows) {
            builder.addRow(row);
        }
        chunks.addAll(builder.build().chunks());
        return new Table(old.name(), old.schema(), chunks);
    }
}
