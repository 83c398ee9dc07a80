package io.troupe.formats.csv;

import io.troupe.operators.types.DataType;

/**
 * The types a CSV column may be detected as, from the most specific down, in the order DuckDB's sniffer tries
 * them; a column that fails one moves to a later one. Each maps to the Troupe type it loads as.
 */
enum SniffedType {
    /** Nothing but NULLs seen yet; a column that stays so loads as VARCHAR. */
    NULL(DataType.VARCHAR),
    BOOLEAN(DataType.BOOLEAN),
    TIME(DataType.TIME),
    DATE(DataType.DATE),
    TIMESTAMP(DataType.TIMESTAMP),
    TIMESTAMP_TZ(DataType.TIMESTAMP_TZ),
    BIGINT(DataType.INT64),
    /** DuckDB's HUGEINT: an integer past BIGINT, here of at most 38 digits. */
    HUGEINT(DataType.decimal(38, 0)),
    DOUBLE(DataType.FLOAT64),
    VARCHAR(DataType.VARCHAR);

    private final DataType loadsAs;

    SniffedType(DataType loadsAs) {
        this.loadsAs = loadsAs;
    }

    DataType loadsAs() {
        return loadsAs;
    }

    /** The next type to try after this one fails. */
    SniffedType wider() {
        return values()[ordinal() + 1];
    }

    /**
     * Whether a value that fails this type sends the column straight to VARCHAR (DuckDB's rule once a column has
     * held a value of the type: a boolean, date or time column that meets another value is text).
     */
    boolean failsToText() {
        return this == BOOLEAN || this == TIME || this == DATE || this == TIMESTAMP || this == TIMESTAMP_TZ;
    }
}
