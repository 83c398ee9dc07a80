package io.troupe.operators.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Static;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import static java.util.Map.entry;

/**
 * The names PostgreSQL and DuckDB users give SQL's types beyond the standard's ({@code text}, {@code int4}, {@code
 * float8}, {@code bool}, {@code timestamptz} ...), which Calcite's parser reads as names of user-defined types and its
 * validator looks up in the root schema, where {@link #addTo} puts them; and {@link #check}, which names a type that
 * is neither before the validator takes it for an unknown column. Immutable.
 */
final class TypeNames {

    /** Each name, upper case, and the standard type it names (precision and scale: the type's defaults). */
    private static final Map<String, SqlTypeName> ALIASES = Map.ofEntries(
            entry("TEXT", SqlTypeName.VARCHAR), entry("STRING", SqlTypeName.VARCHAR),
            entry("BPCHAR", SqlTypeName.VARCHAR),
            entry("INT1", SqlTypeName.TINYINT), entry("INT2", SqlTypeName.SMALLINT),
            entry("SHORT", SqlTypeName.SMALLINT), entry("INT4", SqlTypeName.INTEGER),
            entry("SIGNED", SqlTypeName.INTEGER), entry("INT8", SqlTypeName.BIGINT), entry("LONG", SqlTypeName.BIGINT),
            entry("FLOAT4", SqlTypeName.REAL), entry("FLOAT8", SqlTypeName.DOUBLE),
            entry("BOOL", SqlTypeName.BOOLEAN), entry("LOGICAL", SqlTypeName.BOOLEAN),
            entry("TIMESTAMPTZ", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
            entry("BYTEA", SqlTypeName.VARBINARY));

    private TypeNames() {
    }

    /** Adds every name to {@code root}, the schema Calcite's validator looks type names up in. */
    static void addTo(SchemaPlus root) {
        ALIASES.forEach((name, type) -> root.add(name, factory -> of(factory, type)));
    }

    private static RelDataType of(RelDataTypeFactory factory, SqlTypeName type) {
        return switch (type) {
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> factory.createSqlType(type, TroupeTypeSystem.MICROSECONDS);
            default -> factory.createSqlType(type);
        };
    }

    /**
     * @throws org.apache.calcite.runtime.CalciteContextException at the first type {@code parsed} names that is no
     *         standard type and none of these names ({@code CAST(x AS texts)})
     */
    static void check(SqlNode parsed) {
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlDataTypeSpec type) {
                if (type.getTypeNameSpec() instanceof SqlUserDefinedTypeNameSpec named) {
                    String name = named.getTypeName().toString();
                    if (!ALIASES.containsKey(name.toUpperCase(Locale.ROOT))) {
                        throw SqlUtil.newContextException(type.getParserPosition(),
                                Static.RESOURCE.typeNotFound(name));
                    }
                }
                return null;
            }
        });
    }

    /** The type names a user may write, standard and these, lower case: what a misspelt one most likely meant. */
    static List<String> known() {
        TreeSet<String> names = new TreeSet<>(ALIASES.keySet());
        names.addAll(List.of("BIGINT", "BOOLEAN", "CHAR", "DATE", "DECIMAL", "DOUBLE", "FLOAT", "INT", "INTEGER",
                "INTERVAL", "NUMERIC", "REAL", "SMALLINT", "TIME", "TIMESTAMP", "TINYINT", "VARCHAR"));
        names.addAll(List.of("BINARY", "UUID", "VARBINARY"));
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }
}
