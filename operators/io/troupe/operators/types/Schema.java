package io.troupe.operators.types;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * An ordered list of {@link Field}s. Immutable and threadsafe.
 *
 * <p>Column names are matched case-insensitively, as SQL does for unquoted identifiers. A
 * reference is either {@code name} or {@code qualifier.name}; {@link #resolve} says whether it
 * names no column, one, or several (ambiguous).
 */
public final class Schema {

    /** Returned by {@link #resolve} when no column matches. */
    public static final int NOT_FOUND = -1;
    /** Returned by {@link #resolve} when more than one column matches. */
    public static final int AMBIGUOUS = -2;

    private final List<Field> fields;

    public Schema(List<Field> fields) {
        this.fields = List.copyOf(fields);
    }

    public static Schema of(Field... fields) {
        return new Schema(Arrays.asList(fields));
    }

    public int size() {
        return fields.size();
    }

    public Field field(int index) {
        return fields.get(index);
    }

    public DataType type(int index) {
        return fields.get(index).type();
    }

    public List<Field> fields() {
        return Collections.unmodifiableList(fields);
    }

    /**
     * Finds the column a reference names.
     *
     * @param reference {@code name} or {@code qualifier.name}
     * @return the column index, {@link #NOT_FOUND} or {@link #AMBIGUOUS}
     */
    public int resolve(String reference) {
        int dot = reference.lastIndexOf('.');
        String qualifier = dot < 0 ? null : reference.substring(0, dot);
        String name = dot < 0 ? reference : reference.substring(dot + 1);
        int found = NOT_FOUND;
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            boolean nameMatches = f.name().equalsIgnoreCase(name);
            boolean qualifierMatches = qualifier == null
                    || (f.qualifier() != null && f.qualifier().equalsIgnoreCase(qualifier));
            if (nameMatches && qualifierMatches) {
                if (found != NOT_FOUND) {
                    return AMBIGUOUS;
                }
                found = i;
            }
        }
        return found;
    }

    /** This schema's fields followed by {@code other}'s. */
    public Schema concat(Schema other) {
        List<Field> all = new ArrayList<>(fields);
        all.addAll(other.fields);
        return new Schema(all);
    }

    /** Every field given {@code qualifier} (a table alias). */
    public Schema withQualifier(String qualifier) {
        List<Field> all = new ArrayList<>(fields.size());
        for (Field f : fields) {
            all.add(f.withQualifier(qualifier));
        }
        return new Schema(all);
    }

    /** Every field made nullable (the outer side of an outer join). */
    public Schema asNullable() {
        List<Field> all = new ArrayList<>(fields.size());
        for (Field f : fields) {
            all.add(f.withNullable(true));
        }
        return new Schema(all);
    }

    /** The column names, in order, as "a INT32, b VARCHAR". */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Field f = fields.get(i);
            sb.append(f.name()).append(' ').append(f.type().toString().toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schema s && s.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
