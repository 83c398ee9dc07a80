package io.troupe.operators.exec;

/**
 * Names a value that one pipeline publishes in the {@link ExecContext} for later pipelines (a
 * finished hash table, an aggregate's result). Identity-equal: the planner creates one key per
 * plan node and hands it to both the producing sink and the consuming operator or source.
 *
 * @param <T> the type of the published value
 */
public final class StateKey<T> {

    private final String name;
    private final Class<T> type;

    public StateKey(String name, Class<T> type) {
        this.name = name;
        this.type = type;
    }

    public Class<T> type() {
        return type;
    }

    @Override
    public String toString() {
        return name;
    }
}
