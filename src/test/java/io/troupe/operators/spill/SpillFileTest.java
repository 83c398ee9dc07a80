package io.troupe.operators.spill;

import io.troupe.operators.batch.Batch;
import io.troupe.operators.batch.ColumnVector;
import io.troupe.operators.batch.VectorBuilder;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spill files alone: every type (NULLs, empty strings, selections, a block larger than the buffer)
 * comes back as it went in; the cap on the space fails the writer with an error naming it; files
 * go with their query, and directories of dead processes go with the next space.
 */
class SpillFileTest {

    private static final DataType[] TYPES = {DataType.INT32, DataType.INT64, DataType.FLOAT64,
            DataType.decimal(12, 2), DataType.DATE, DataType.BOOLEAN, DataType.VARCHAR};

    @TempDir
    Path tmp;

    @Test
    void everyTypeComesBackRowForRowWithNullsSelectionsAndBlocksPastTheBuffer() {
        Random random = new Random(42);
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            QuerySpill spill = space.forQuery(1);
            SpillFile file = spill.newFile("test build p1", TYPES);
            SpillWriter writer = file.writer();
            List<List<Object>> expected = new ArrayList<>();
            // Small batches, a batch with a selection, and one whose block is larger than the buffer.
            for (int rows : new int[] {1, 17, 2048, 0, 3, 30_000}) {
                Batch batch = randomBatch(random, rows);
                if (rows == 2048) {
                    int[] selection = new int[rows / 3];
                    for (int i = 0; i < selection.length; i++) {
                        selection[i] = i * 3;
                    }
                    batch = batch.withSelection(selection, selection.length);
                }
                writer.write(batch);
                expected.addAll(rows(batch));
            }
            writer.finish();
            assertEquals(expected.size(), file.rows());
            for (int pass = 0; pass < 2; pass++) {
                List<List<Object>> actual = new ArrayList<>();
                SpillReader reader = file.reader();
                for (Batch b = reader.next(); b != null; b = reader.next()) {
                    assertEquals(null, b.selection(), "read back dense");
                    actual.addAll(rows(b));
                }
                assertEquals(expected, actual, "pass " + pass);
            }
            assertEquals(file.length(), space.heldBytes());
            assertEquals(file.length(), spill.writtenBytes());
            spill.releaseAll();
            assertFalse(Files.exists(file.path()));
            assertEquals(0, space.heldBytes());
        }
    }

    @Test
    void overTheCapTheWriterFailsNamingTheCapAndNothingIsCounted() {
        try (SpillSpace space = new SpillSpace(tmp, 1000, true)) {
            QuerySpill spill = space.forQuery(5);
            SpillWriter writer = spill.newFile("sort s run 0", TYPES).writer();
            writer.write(randomBatch(new Random(1), 100));
            QueryFailedException e = assertThrows(QueryFailedException.class, writer::finish);
            assertTrue(e.getMessage().startsWith("query 5: sort s run 0 would write "), e.getMessage());
            assertTrue(e.getMessage().endsWith(" more bytes of spill files, over troupe.spill.max-size = 1000 bytes "
                    + "(0 bytes held by all queries)"), e.getMessage());
            assertEquals(0, space.heldBytes());
            // A later write (another worker's, to a shared writer) fails naming the cap, as the first did.
            QueryFailedException again = assertThrows(QueryFailedException.class,
                    () -> writer.write(randomBatch(new Random(2), 1_000)));
            assertTrue(again.getMessage().contains("over troupe.spill.max-size = 1000 bytes"), again.getMessage());
            spill.releaseAll();
            assertEquals(0, space.fileCount());
        }
    }

    @Test
    void aQuerysFilesGoWhenItEndsAndAFileMadeAfterwardFails() throws IOException {
        Path dir;
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            QuerySpill spill = space.forQuery(9);
            for (int i = 0; i < 3; i++) {
                SpillWriter writer = spill.newFile("agg p" + i, TYPES).writer();
                writer.write(randomBatch(new Random(i), 10));
                if (i < 2) {
                    writer.finish();
                }
            }
            assertEquals(3, space.fileCount());
            dir = space.directory();
            spill.releaseAll();
            assertEquals(0, space.fileCount());
            assertEquals(0, space.heldBytes());
            QueryFailedException late = assertThrows(QueryFailedException.class, () -> spill.newFile("late", TYPES));
            assertEquals("query 9: late spills after the query ended", late.getMessage());
            assertEquals(0, space.fileCount());
        }
        assertFalse(Files.exists(dir), "the space's directory goes with it");
    }

    @Test
    void spillingSwitchedOffIsAnErrorOfTheOperatorNotAFile() {
        QuerySpill spill = SpillSpace.disabled().forQuery(3);
        assertFalse(spill.enabled());
        assertThrows(IllegalStateException.class, () -> spill.newFile("x", TYPES));
    }

    @Test
    void aNewSpaceRemovesTheDirectoriesOfProcessesThatAreGoneAndKeepsLiveOnes() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path abandoned = Files.createDirectories(tmp.resolve("troupe-spill-" + gone.pid() + "-1"));
        Files.writeString(abandoned.resolve("q1-0-x.spill"), "left behind");
        Path live = Files.createDirectories(tmp.resolve("troupe-spill-" + ProcessHandle.current().pid() + "-999"));
        Path unrelated = Files.createDirectories(tmp.resolve("troupe-spill-notapid"));
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            assertFalse(Files.exists(abandoned), "the dead process's directory is removed");
            assertTrue(Files.exists(live), "a live process's directory stays");
            assertTrue(Files.exists(unrelated));
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(live.getFileName(), unrelated.getFileName()),
                    left.map(Path::getFileName).sorted().toList());
        }
    }

    @Test
    void readingBeforeTheWriterFinishedIsAMisuse() {
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            SpillFile file = space.forQuery(1).newFile("x", TYPES);
            file.writer();
            assertThrows(IllegalStateException.class, file::reader);
            assertThrows(IllegalStateException.class, file::writer, "one writer");
        }
    }

    private static Batch randomBatch(Random random, int rows) {
        ColumnVector[] columns = new ColumnVector[TYPES.length];
        for (int c = 0; c < TYPES.length; c++) {
            VectorBuilder b = new VectorBuilder(TYPES[c], Math.max(rows, 1));
            for (int r = 0; r < rows; r++) {
                if (random.nextInt(7) == 0) {
                    b.appendNull();
                    continue;
                }
                switch (TYPES[c].id()) {
                    case INT32 -> b.appendInt(random.nextInt());
                    case INT64 -> b.appendLong(random.nextLong());
                    case FLOAT64 -> b.appendDouble(random.nextGaussian());
                    case DECIMAL -> b.appendObject(BigDecimal.valueOf(random.nextInt(1_000_000), 2));
                    case DATE -> b.appendObject(LocalDate.ofEpochDay(random.nextInt(40_000)));
                    case BOOLEAN -> b.appendBoolean(random.nextBoolean());
                    case VARCHAR -> b.appendString(random.nextInt(5) == 0 ? "" : "s" + random.nextInt(100_000)
                            + "é".repeat(random.nextInt(3)));
                }
            }
            columns[c] = b.build();
        }
        return Batch.of(rows, columns);
    }

    private static List<List<Object>> rows(Batch batch) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            rows.add(Arrays.asList(batch.rowObjects(i)));
        }
        return rows;
    }

    @Test
    void aReaderOfAnEmptyFileEndsAtOnce() {
        try (SpillSpace space = new SpillSpace(tmp, Long.MAX_VALUE, true)) {
            SpillFile file = space.forQuery(1).newFile("empty", TYPES);
            file.writer().finish();
            assertNull(file.reader().next());
            assertEquals(0, file.rows());
        }
    }
}
