package io.troupe.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * "Did you mean": the known names closest to a misspelt one, by edit distance (case-insensitive), so
 * that an unknown setting, table or column names what the user most likely meant.
 */
public final class Spelling {

    private Spelling() {
    }

    /** The known name fewest single-character edits away from {@code name}; the first in order on a tie. */
    public static String nearest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = editDistance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    /**
     * The known names as close to {@code name} as the closest one, compared ignoring case, in the order
     * given; empty when even the closest differs in more than half of {@code name}'s characters.
     */
    public static List<String> closest(String name, Collection<String> known) {
        String lower = name.toLowerCase(Locale.ROOT);
        int best = Integer.MAX_VALUE;
        List<String> found = new ArrayList<>();
        for (String candidate : known) {
            int distance = editDistance(lower, candidate.toLowerCase(Locale.ROOT));
            if (distance < best) {
                best = distance;
                found.clear();
            }
            if (distance == best) {
                found.add(candidate);
            }
        }
        return best <= Math.max(1, name.length() / 2) ? found : List.of();
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
    public static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
