package io.troupe.operators.types;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    private static final Pattern COLUMN = Pattern.compile("(\\w+)\\s+(.+?)(\\s+NOT\\s+NULL)?",
            Pattern.CASE_INSENSITIVE);

    private final List<Field> fields;

    public Schema(List<Field> fields) {
        this.fields = List.copyOf(fields);
    }

    public static Schema of(Field... fields) {
        return new Schema(Arrays.asList(fields));
    }

    /**
     * The columns that {@code columns} declares, comma-separated, each {@code name TYPE [NOT NULL]}
     * with a type as {@link DataType#parse} reads it: {@code id INT64 NOT NULL, amount DECIMAL(7,2)}.
     * The golden files' tables and loadtest's CSV headers are declared this way.
     *
     * @throws IllegalArgumentException naming the column that is not a column or has an unknown type
     */
    public static Schema parse(String columns) {
        List<Field> fields = new ArrayList<>();
        for (String column : splitTopLevel(columns)) {
            Matcher m = COLUMN.matcher(column.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("expected 'name TYPE [NOT NULL]', found: " + column.strip());
            }
            DataType type;
            try {
                type = DataType.parse(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column " + m.group(1) + ": " + e.getMessage(), e);
            }
            fields.add(Field.of(m.group(1), type).withNullable(m.group(3) == null));
        }
        return new Schema(fields);
    }

    /** {@code text} cut at the commas outside parentheses (DECIMAL(7,2) has one inside). */
    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
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
