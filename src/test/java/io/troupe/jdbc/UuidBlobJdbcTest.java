package io.troupe.jdbc;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.api.Troupe;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.table.DelimitedFileLoader;
import io.troupe.operators.table.DelimitedFileWriter;
import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.oracle.DuckDbOracle;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UUID and BLOB values in and out: through JDBC (getObject a java.util.UUID or a byte[], getString their text,
 * getBytes, the metadata's types, parameters set from a UUID, its text or a byte[]), and through a delimited file
 * written and loaded back (a UUID as its text, a BLOB in PostgreSQL's hex form), compared row for row with the
 * tables written.
 */
@Timeout(120)
class UuidBlobJdbcTest {

    private static final String NAME = "uuid-blob-jdbc-test";
    private static final String URL = "jdbc:troupe:" + NAME;

    private static Troupe troupe;

    @BeforeAll
    static void start() {
        troupe = Troupe.start(TroupeSettings.load());
        TroupeDriver.register(NAME, troupe);
    }

    @AfterAll
    static void stop() {
        TroupeDriver.unregister(NAME);
        troupe.close();
    }

    @Test
    void shouldReturnAndTakeUuidsAndBytes() throws SQLException {
        UUID id = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        try (Connection c = DriverManager.getConnection(URL);
             PreparedStatement ps = c.prepareStatement("SELECT UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', "
                     + "X'01ff', CAST(? AS UUID) = UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', "
                     + "octet_length(CAST(? AS BLOB)), CAST(NULL AS UUID), CAST(NULL AS BLOB)")) {
            ps.setObject(1, id);
            ps.setBytes(2, new byte[] {1, 2, 3});
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(id, rs.getObject(1));
                assertEquals(id, rs.getObject(1, UUID.class));
                assertEquals(id.toString(), rs.getString(1));
                assertArrayEquals(new byte[] {1, (byte) 0xff}, (byte[]) rs.getObject(2));
                assertArrayEquals(new byte[] {1, (byte) 0xff}, rs.getBytes(2));
                assertEquals("\\x01ff", rs.getString(2));
                assertEquals(true, rs.getBoolean(3));
                assertEquals(3, rs.getLong(4));
                assertNull(rs.getObject(5));
                assertTrue(rs.wasNull());
                assertNull(rs.getBytes(6));
                assertEquals(Types.OTHER, rs.getMetaData().getColumnType(1));
                assertEquals("UUID", rs.getMetaData().getColumnTypeName(1));
                assertEquals(UUID.class.getName(), rs.getMetaData().getColumnClassName(1));
                assertEquals(Types.VARBINARY, rs.getMetaData().getColumnType(2));
                assertEquals("BLOB", rs.getMetaData().getColumnTypeName(2));
                assertEquals(byte[].class.getName(), rs.getMetaData().getColumnClassName(2));
                assertFalse(rs.next());
            }
            ps.setString(1, id.toString().toUpperCase(java.util.Locale.ROOT));
            ps.setBytes(2, new byte[0]);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(true, rs.getBoolean(3));
                assertEquals(0, rs.getLong(4));
            }
            SQLException e = assertThrows(SQLException.class, () -> ps.setString(1, "not a uuid"));
            assertTrue(e.getMessage().contains("not a uuid"), e.getMessage());
        }
    }

    @Test
    void shouldWriteAndLoadUuidsAndBlobsAsText(@TempDir Path dir) throws Exception {
        Random random = new Random(31);
        TableBuilder b = new TableBuilder("written", Schema.of(new Field(null, "id", DataType.INT32, false),
                Field.of("u", DataType.UUID), Field.of("b", DataType.BLOB)), 16);
        for (int id = 0; id < 100; id++) {
            byte[] bytes = new byte[random.nextInt(6)];
            random.nextBytes(bytes);
            b.addRow(id, random.nextInt(8) == 0 ? null : new UUID(random.nextLong(), random.nextLong()),
                    random.nextInt(8) == 0 ? null : bytes);
        }
        Table written = b.build();
        Path file = dir.resolve("written.tbl");
        DelimitedFileWriter.write(written, file);
        Table loaded = new DelimitedFileLoader(written.schema(), DelimitedFormat.tpc()).load(file, "loaded");
        troupe.register(written);
        troupe.register(loaded);
        List<List<Object>> before = rows("written");
        assertEquals(100, before.size());
        assertEquals(before, rows("loaded"), Files.readString(file));
        assertTrue(Files.readString(file).contains("|\\x"), "a BLOB is written in the hex form");
    }

    private static List<List<Object>> rows(String table) {
        return DuckDbOracle.normalise(troupe.sql("SELECT * FROM " + table + " ORDER BY id",
                QueryOptions.defaults().withWorkers(1)).rows());
    }
}
