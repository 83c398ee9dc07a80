package io.troupe.operators.plan;

import io.troupe.operators.expr.Expression;
import io.troupe.operators.expr.LiteralExpression;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Blobs;
import io.troupe.operators.types.Interval;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.Timestamps;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A constant of a given type. {@code type} is null only for the untyped NULL that closes a CASE
 * without ELSE, which takes its type from the CASE's other results.
 */
public record Literal(Object value, DataType type) implements Expr {

    @Override
    public Expression bind(Schema input, String where) {
        if (type == null) {
            throw new PlanException(where, "an untyped NULL needs a type here: use Expr.nullOf(type)");
        }
        return new LiteralExpression(value, type, toString());
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public String toString() {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        if (value instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (value instanceof LocalDateTime t) {
            return "TIMESTAMP '" + Timestamps.timestampText(Timestamps.fromLocalDateTime(t)) + "'";
        }
        if (value instanceof Instant i) {
            return "TIMESTAMPTZ '" + Timestamps.instantText(Timestamps.fromInstant(i), ZoneOffset.UTC) + "'";
        }
        if (value instanceof LocalTime t) {
            return "TIME '" + Timestamps.timeText(Timestamps.fromLocalTime(t)) + "'";
        }
        if (value instanceof Interval i) {
            return "INTERVAL '" + i + "'";
        }
        if (value instanceof Short || value instanceof Byte || value instanceof Float) {
            return (value instanceof Short ? "SMALLINT '" : value instanceof Byte ? "TINYINT '" : "REAL '") + value + "'";
        }
        if (value instanceof UUID u) {
            return "UUID '" + u + "'";
        }
        if (value instanceof byte[] b) {
            return "BLOB '" + Blobs.text(b) + "'";
        }
        return value.toString();
    }

    /** Equal values of one type; a BLOB's bytes compare by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Literal other && Objects.deepEquals(value, other.value) && Objects.equals(type, other.type);
    }

    @Override
    public int hashCode() {
        return 31 * (value instanceof byte[] b ? Arrays.hashCode(b) : Objects.hashCode(value)) + Objects.hashCode(type);
    }
}
