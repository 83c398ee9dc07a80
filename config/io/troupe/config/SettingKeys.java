package io.troupe.config;

import com.typesafe.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The keys Troupe knows under {@code troupe}: every path that reference.conf gives a default
 * (every reference.conf on the classpath, merged, as Typesafe Config merges them), so that a key
 * added there is known here without a list to keep in step. A key set under {@code troupe} that is
 * none of them is a mistake (a typo: {@code troupe.hash.chunksize}), which would otherwise leave
 * the default silently in force; it fails with the nearest known key by edit distance.
 *
 * <p>Threadsafe: immutable.
 */
final class SettingKeys {

    private static final String ROOT = "troupe";

    private final Config reference;
    private final List<String> known;

    /** The keys {@code reference} (a config holding the {@code troupe} section with its defaults) sets. */
    SettingKeys(Config reference) {
        this.reference = reference;
        List<String> paths = new ArrayList<>();
        for (Map.Entry<String, ?> entry : reference.getConfig(ROOT).entrySet()) {
            paths.add(ROOT + "." + entry.getKey());
        }
        this.known = List.copyOf(new TreeSet<>(paths));
    }

    /**
     * @throws IllegalArgumentException naming each key under {@code troupe} in {@code config} that the
     *         reference does not know, with the nearest it does
     */
    void checkKnown(Config config) {
        if (!config.hasPath(ROOT)) {
            return;
        }
        List<String> unknown = new ArrayList<>();
        for (String key : new TreeSet<>(config.getConfig(ROOT).entrySet().stream().map(Map.Entry::getKey).toList())) {
            String path = ROOT + "." + key;
            if (!reference.hasPathOrNull(path)) {
                unknown.add("unknown setting " + path + " (did you mean " + nearest(path) + "?)");
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", unknown));
        }
    }

    /** The known key fewest single-character edits away from {@code path}; the first in order on a tie. */
    String nearest(String path) {
        return Spelling.nearest(path, known);
    }
}
