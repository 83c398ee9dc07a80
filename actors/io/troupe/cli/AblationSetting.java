package io.troupe.cli;

import io.troupe.config.TroupeSettings;

import java.util.function.UnaryOperator;

/**
 * One position of a lesson's switch in {@code troupe bench --ablation}: its name, as the
 * configuration value it sets (always-write, locked-queue, ...), and how it turns Troupe's settings
 * into the settings of the Troupe that runs it. Immutable.
 *
 * @param name  the name in ablation.csv and the printed table; no commas
 * @param apply the settings with this position in force, from the settings the bench starts from
 */
record AblationSetting(String name, UnaryOperator<TroupeSettings> apply) {

    AblationSetting {
        if (name.isEmpty() || name.contains(",")) {
            throw new IllegalArgumentException("an ablation setting's name must be non-empty without commas (a CSV "
                    + "column), got '" + name + "'");
        }
    }
}
