package io.troupe.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;

import java.util.Locale;

/**
 * Troupe's settings, read once from Typesafe Config (reference.conf documents every key) and
 * validated on the way in: a bad value fails fast with its key path. Immutable and threadsafe.
 * Nothing else in Troupe reads configuration or system properties.
 *
 * @param batchSize  rows per batch ({@code troupe.batch-size})
 * @param matchFlags how probes record matches ({@code troupe.hash.match-flags})
 */
public record TroupeSettings(int batchSize, MatchFlags matchFlags) {

    /** Lesson 1's switch: see {@code troupe.hash.match-flags} in reference.conf. */
    public enum MatchFlags {
        /** Read the flag, store only when not yet set: cache lines stay shared between probers. */
        CHECK_BEFORE_WRITE,
        /** Store on every match (the baseline the lesson measures against). */
        ALWAYS_WRITE
    }

    public static final int MAX_BATCH_SIZE = 1 << 20;

    public TroupeSettings {
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("troupe.batch-size must be in 1.." + MAX_BATCH_SIZE + ", got " + batchSize);
        }
    }

    /** The defaults, overridden by application.conf and -Dtroupe.* system properties. */
    public static TroupeSettings load() {
        return from(ConfigFactory.load());
    }

    /** Reads the {@code troupe} section of {@code config} (with reference.conf's defaults under it). */
    public static TroupeSettings from(Config config) {
        Config c = config.withFallback(ConfigFactory.defaultReference()).getConfig("troupe");
        try {
            return new TroupeSettings(
                    c.getInt("batch-size"),
                    parseEnum(MatchFlags.class, c, "hash.match-flags"));
        } catch (ConfigException e) {
            throw new IllegalArgumentException("invalid Troupe setting: " + e.getMessage(), e);
        }
    }

    public TroupeSettings withBatchSize(int newBatchSize) {
        return new TroupeSettings(newBatchSize, matchFlags);
    }

    public TroupeSettings withMatchFlags(MatchFlags newMatchFlags) {
        return new TroupeSettings(batchSize, newMatchFlags);
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, Config c, String key) {
        String raw = c.getString(key);
        try {
            return Enum.valueOf(type, raw.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E constant : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : ", ")
                        .append(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            throw new IllegalArgumentException("troupe." + key + " must be one of " + allowed + ", got '" + raw + "'");
        }
    }
}
