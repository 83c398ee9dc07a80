package io.troupe.golden;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a golden case's SQL in an in-memory DuckDB loaded with the file's tables: the engine we
 * did not write, which confirms the expected rows. Each call opens a fresh database, so cases
 * cannot see each other's state.
 *
 * <p>Stateless and threadsafe.
 */
final class DuckDbOracle {

    private DuckDbOracle() {
    }

    /** DuckDB's answer: the number of columns and the rows in canonical golden text. */
    record Result(int columns, List<String> rows) {
    }

    /**
     * Loads {@code tables} and runs {@code sql}.
     *
     * @throws SQLException when DuckDB rejects the SQL or fails running it
     */
    static Result query(List<TableDef> tables, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            load(c, tables);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                int columns = rs.getMetaData().getColumnCount();
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>(columns);
                    for (int col = 1; col <= columns; col++) {
                        row.add(rs.getObject(col));
                    }
                    rows.add(GoldenValues.formatRow(row));
                }
                return new Result(columns, rows);
            }
        }
    }

    private static void load(Connection c, List<TableDef> tables) throws SQLException {
        for (TableDef t : tables) {
            try (Statement s = c.createStatement()) {
                s.execute(t.createSql());
            }
            if (t.rows().isEmpty()) {
                continue;
            }
            try (PreparedStatement insert = c.prepareStatement(t.insertSql())) {
                for (List<Object> row : t.rows()) {
                    for (int col = 0; col < row.size(); col++) {
                        insert.setObject(col + 1, row.get(col));
                    }
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }
}
