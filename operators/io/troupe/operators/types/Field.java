package io.troupe.operators.types;

import java.util.Objects;

/**
 * A named, typed column of a {@link Schema}. {@code qualifier} is the table name or alias the
 * column came from ("t1" in {@code t1.i}), or null for computed columns. Immutable.
 */
public record Field(String qualifier, String name, DataType type, boolean nullable) {

    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    public static Field of(String name, DataType type) {
        return new Field(null, name, type, true);
    }

    public Field withQualifier(String newQualifier) {
        return new Field(newQualifier, name, type, nullable);
    }

    public Field withName(String newName) {
        return new Field(qualifier, newName, type, nullable);
    }

    public Field withNullable(boolean newNullable) {
        return new Field(qualifier, name, type, newNullable);
    }

    /** {@code qualifier.name}, or just {@code name} when unqualified. */
    public String qualifiedName() {
        return qualifier == null ? name : qualifier + "." + name;
    }

    @Override
    public String toString() {
        return qualifiedName() + " " + type + (nullable ? "" : " NOT NULL");
    }
}
