package io.troupe.operators.sql;

import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Thrown inside the SQL front end when a statement uses something Troupe cannot run yet; {@link SqlPlanner}
 * turns it into a {@link SqlException} that says "unsupported in SQL: what", with the position where
 * one is known ({@link SqlParserPos#ZERO} when the construct was found after conversion to relations).
 */
final class UnsupportedSqlException extends RuntimeException {

    private final transient SqlParserPos position;

    UnsupportedSqlException(String what) {
        this(what, SqlParserPos.ZERO);
    }

    UnsupportedSqlException(String what, SqlParserPos position) {
        super(what);
        this.position = position;
    }

    SqlParserPos position() {
        return position;
    }
}
