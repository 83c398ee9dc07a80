package io.troupe.jdbc;

import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.table.TableBuilder;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;
import io.troupe.operators.types.TypeId;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The result sets of {@link TroupeDatabaseMetaData}: the catalog's tables and columns, matched by JDBC's
 * patterns ({@code %} any characters, {@code _} one, {@value #ESCAPE} before either to mean it; null
 * matches all; names match regardless of case, as Troupe's SQL does), the types, and the empty answers
 * about keys and indexes, each with the columns and the order {@link DatabaseMetaData} specifies. Built
 * up front from the catalog as it is at the call (they are small) and read through {@link TroupeResultSet}.
 */
final class MetadataRows {

    static final String ESCAPE = "\\";

    private static final Schema TABLES = columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
            "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION");
    private static final Schema COLUMNS = columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
            "DATA_TYPE int", "TYPE_NAME", "COLUMN_SIZE int", "BUFFER_LENGTH int", "DECIMAL_DIGITS int",
            "NUM_PREC_RADIX int", "NULLABLE int", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE int",
            "SQL_DATETIME_SUB int", "CHAR_OCTET_LENGTH int", "ORDINAL_POSITION int", "IS_NULLABLE",
            "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE int", "IS_AUTOINCREMENT",
            "IS_GENERATEDCOLUMN");
    private static final Schema SCHEMAS = columns("TABLE_SCHEM", "TABLE_CATALOG");
    private static final Schema CATALOGS = columns("TABLE_CAT");
    private static final Schema TABLE_TYPES = columns("TABLE_TYPE");
    private static final Schema TYPE_INFO = columns("TYPE_NAME", "DATA_TYPE int", "PRECISION int",
            "LITERAL_PREFIX", "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE int", "CASE_SENSITIVE boolean",
            "SEARCHABLE int", "UNSIGNED_ATTRIBUTE boolean", "FIXED_PREC_SCALE boolean", "AUTO_INCREMENT boolean",
            "LOCAL_TYPE_NAME", "MINIMUM_SCALE int", "MAXIMUM_SCALE int", "SQL_DATA_TYPE int",
            "SQL_DATETIME_SUB int", "NUM_PREC_RADIX int");
    private static final Schema PRIMARY_KEYS = columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
            "KEY_SEQ int", "PK_NAME");
    private static final Schema FOREIGN_KEYS = columns("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME",
            "PKCOLUMN_NAME", "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ int",
            "UPDATE_RULE int", "DELETE_RULE int", "FK_NAME", "PK_NAME", "DEFERRABILITY int");
    private static final Schema INDEX_INFO = columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
            "NON_UNIQUE boolean", "INDEX_QUALIFIER", "INDEX_NAME", "TYPE int", "ORDINAL_POSITION int", "COLUMN_NAME",
            "ASC_OR_DESC", "CARDINALITY bigint", "PAGES bigint", "FILTER_CONDITION");
    private static final String TABLE = "TABLE";

    /** Every type, in the order of their {@link java.sql.Types} codes, as getTypeInfo lists them. */
    private static final List<DataType> TYPES = List.of(DataType.BOOLEAN, DataType.INT8, DataType.INT64,
            DataType.INT32, DataType.INT16, DataType.decimal(DataType.MAX_DECIMAL_PRECISION, 0), DataType.FLOAT32,
            DataType.FLOAT64, DataType.VARCHAR, DataType.DATE);

    private final Catalog catalog;

    MetadataRows(Catalog catalog) {
        this.catalog = catalog;
    }

    ResultSet tables(String schemaPattern, String tablePattern, String[] types) {
        return rows(TABLES, add -> {
            if (!matches(schemaPattern, TroupeDatabaseMetaData.SCHEMA)
                    || types != null && !List.of(types).contains(TABLE)) {
                return;
            }
            for (Table table : catalog.tables()) {
                if (matches(tablePattern, table.name())) {
                    add.accept(new Object[] {null, TroupeDatabaseMetaData.SCHEMA, table.name(), TABLE, "", null, null,
                            null, null, null});
                }
            }
        });
    }

    ResultSet columns(String schemaPattern, String tablePattern, String columnPattern) {
        return rows(COLUMNS, add -> {
            if (!matches(schemaPattern, TroupeDatabaseMetaData.SCHEMA)) {
                return;
            }
            for (Table table : catalog.tables()) {
                if (!matches(tablePattern, table.name())) {
                    continue;
                }
                List<Field> fields = table.schema().fields();
                for (int c = 0; c < fields.size(); c++) {
                    Field f = fields.get(c);
                    if (matches(columnPattern, f.name())) {
                        DataType type = f.type();
                        boolean text = type.id() == TypeId.VARCHAR;
                        add.accept(new Object[] {null, TroupeDatabaseMetaData.SCHEMA, table.name(), f.name(),
                                JdbcTypes.code(type), JdbcTypes.name(type), JdbcTypes.precision(type), null,
                                type.isNumeric() ? type.scale() : null, type.isNumeric() ? 10 : null,
                                f.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
                                "", null, null, null, text ? Integer.MAX_VALUE : null, c + 1,
                                f.nullable() ? "YES" : "NO", null, null, null, null, "NO", "NO"});
                    }
                }
            }
        });
    }

    ResultSet schemas(String schemaPattern) {
        return rows(SCHEMAS, add -> {
            if (matches(schemaPattern, TroupeDatabaseMetaData.SCHEMA)) {
                add.accept(new Object[] {TroupeDatabaseMetaData.SCHEMA, null});
            }
        });
    }

    ResultSet catalogs() {
        return rows(CATALOGS, add -> { });
    }

    ResultSet tableTypes() {
        return rows(TABLE_TYPES, add -> add.accept(new Object[] {TABLE}));
    }

    ResultSet typeInfo() {
        return rows(TYPE_INFO, add -> {
            for (DataType type : TYPES) {
                boolean decimal = type.id() == TypeId.DECIMAL;
                boolean quoted = type.id() == TypeId.VARCHAR || type.id() == TypeId.DATE;
                add.accept(new Object[] {JdbcTypes.name(type), JdbcTypes.code(type), JdbcTypes.precision(type),
                        quoted ? (type.id() == TypeId.DATE ? "DATE '" : "'") : null, quoted ? "'" : null,
                        decimal ? "precision,scale" : null, DatabaseMetaData.typeNullable,
                        type.id() == TypeId.VARCHAR, DatabaseMetaData.typeSearchable, !type.isNumeric(), decimal,
                        false, null, 0, decimal ? DataType.MAX_DECIMAL_PRECISION : 0, null, null,
                        type.isNumeric() ? 10 : null});
            }
        });
    }

    /** None: Troupe's tables have no keys. */
    ResultSet primaryKeys() {
        return rows(PRIMARY_KEYS, add -> { });
    }

    /** None: Troupe's tables have no keys. */
    ResultSet foreignKeys() {
        return rows(FOREIGN_KEYS, add -> { });
    }

    /** None: Troupe's tables have no indexes. */
    ResultSet indexInfo() {
        return rows(INDEX_INFO, add -> { });
    }

    /** {@code name} matches the JDBC pattern {@code pattern} (null: any), regardless of case. */
    static boolean matches(String pattern, String name) {
        if (pattern == null) {
            return true;
        }
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == ESCAPE.charAt(0) && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (ch == '%') {
                regex.append(".*");
            } else if (ch == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL).matcher(name).matches();
    }

    private static ResultSet rows(Schema schema, Consumer<Consumer<Object[]>> fill) {
        TableBuilder builder = new TableBuilder("metadata", schema);
        fill.accept(builder::addRow);
        return TroupeResultSet.fixed(schema, builder.build().chunks());
    }

    /** A schema of {@code NAME} (VARCHAR) and {@code NAME type} columns, all nullable. */
    private static Schema columns(String... names) {
        List<Field> fields = new ArrayList<>(names.length);
        for (String spec : names) {
            String[] parts = spec.split(" ");
            fields.add(Field.of(parts[0], parts.length == 1 ? DataType.VARCHAR
                    : DataType.parse(parts[1].toUpperCase(Locale.ROOT))));
        }
        return new Schema(fields);
    }
}
