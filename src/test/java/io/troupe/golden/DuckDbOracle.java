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
 * Runs the SQL of a golden file's cases in DuckDB, loaded with the file's tables: the engine we
 * did not write, which confirms the expected rows. Each file gets its own schema in one in-memory
 * database that lives as long as the test JVM: opening a database costs 0.1 to 0.3 s, more than
 * a file's cases take, and the database holds no files to clean up. The cases only read, so they
 * cannot see each other.
 *
 * <p>Threadsafe: {@link #run} is serialised on the shared connection.
 */
final class DuckDbOracle {

    /** The shared database; opened on first use, guarded by the class lock. */
    private static Connection connection;
    /** Names each file's schema uniquely; guarded by the class lock. */
    private static int schemas;

    private DuckDbOracle() {
    }

    /** DuckDB's answer to one statement: its rows in canonical golden text, or its error. */
    record Answer(int columns, List<String> rows, SQLException error) {

        static Answer failed(SQLException error) {
            return new Answer(0, List.of(), error);
        }
    }

    /**
     * Loads {@code tables} into a fresh schema and runs each statement of {@code sql} in turn.
     *
     * @return one answer per statement, in order
     * @throws SQLException when the tables cannot be created or loaded
     */
    static synchronized List<Answer> run(List<TableDef> tables, List<String> sql) throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection("jdbc:duckdb:");
        }
        String schema = "golden" + (++schemas);
        execute("CREATE SCHEMA " + schema);
        execute("SET schema = '" + schema + "'");
        try {
            load(connection, tables);
            List<Answer> answers = new ArrayList<>(sql.size());
            for (String statement : sql) {
                try {
                    answers.add(query(connection, statement));
                } catch (SQLException e) {
                    answers.add(Answer.failed(e));
                }
            }
            return answers;
        } finally {
            execute("SET schema = 'main'");
            execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    private static Answer query(Connection c, String sql) throws SQLException {
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
            return new Answer(columns, rows, null);
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
