package io.troupe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ablation chart on made-up summaries: a decodable PNG with one row of two panels per (lesson, workload). */
class AblationChartTest {

    private static final Map<String, String> TITLES = Map.of("s1", "match flags", "s2", "preallocated memory");

    /** Three lessons, a baseline and one other setting each, workers 1 and 2; s3 on two workloads. */
    private static List<AblationSummary> summaries() {
        List<AblationSummary> out = new ArrayList<>();
        String[][] lessons = {{"s1", "w3", "write-once", "always-write"}, {"s2", "w1", "preallocated", "0"},
            {"s3", "w1", "aeron", "locked-queue"}, {"s3", "w2", "aeron", "locked-queue"}};
        for (String[] l : lessons) {
            for (int workers : new int[] {1, 2}) {
                double base = 1.0 / workers;
                out.add(new AblationSummary(l[0], l[1], l[2], true, workers, 5, base, base * 0.9, base * 1.2,
                        1.0, 1.0, 1.0));
                out.add(new AblationSummary(l[0], l[1], l[3], false, workers, 5, base * 1.3, base * 1.1, base * 1.6,
                        1.3, 1.1, 1.45));
            }
        }
        return out;
    }

    @Test
    void drawsOneRowOfRatioAndSecondsPanelsPerLessonAndWorkload(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("ablation.png");
        new AblationChart(summaries(), TITLES).write(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "not a decodable image: " + png);
        assertEquals(2 * 640, image.getWidth(), "two panels wide");
        assertEquals(4 * 420, image.getHeight(), "one row per (lesson, workload): s1/w3, s2/w1, s3/w1, s3/w2");
    }

    @Test
    void drawsASettingThatLacksAWorkerCountAsAGap(@TempDir Path dir) throws IOException {
        List<AblationSummary> partial = new ArrayList<>(summaries());
        partial.removeIf(s -> s.setting().equals("always-write") && s.workers() == 2);
        Path png = dir.resolve("ablation.png");
        new AblationChart(partial, TITLES).write(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(4 * 420, image.getHeight());
    }

    @Test
    void shouldRejectNoSummaries() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AblationChart(List.of(), TITLES));
        assertTrue(e.getMessage().contains("no summaries"), e.getMessage());
    }
}
