package io.troupe.operators.sql;

import io.troupe.operators.table.DelimitedFormat;
import io.troupe.operators.types.Schema;

import java.nio.file.Path;

/**
 * The statements besides queries and INSERT that {@link SqlStatements} runs, as {@link DdlParser} reads them
 * (Calcite's core parser has no CREATE or DROP: its DDL parser is in calcite-server). A statement that embeds a
 * query keeps it as text blanked up to where the query starts, so that the planner's errors name the line and
 * column of the whole statement.
 */
sealed interface Ddl {

    /** {@code CREATE TABLE [IF NOT EXISTS] name (column type [NOT NULL], ...)}: an empty table. */
    record CreateTable(String name, boolean ifNotExists, Schema schema) implements Ddl {
    }

    /** {@code CREATE TABLE [IF NOT EXISTS] name AS query}: the query's rows as a table. */
    record CreateTableAs(String name, boolean ifNotExists, String query) implements Ddl {
    }

    /** {@code DROP TABLE [IF EXISTS] name}. */
    record DropTable(String name, boolean ifExists) implements Ddl {
    }

    /** {@code ANALYZE [TABLE] name}: the table's statistics read now rather than by the first statement over it. */
    record Analyze(String name) implements Ddl {
    }

    /** {@code COPY name FROM 'file' [(HEADER, DELIMITER '|', ...)]}: the file's rows appended to the table. */
    record Copy(String name, Path file, DelimitedFormat format, int line, int column) implements Ddl {
    }
}
