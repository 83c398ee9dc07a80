package io.troupe.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;

/**
 * What a connection's Troupe is and holds: its tables and their columns ({@link MetadataRows}, read from
 * the catalog at each call), its types, and what its SQL does. Every table is in one schema,
 * {@value #SCHEMA} (the one Calcite plans over, so {@code troupe.orders} names a table as {@code orders}
 * does), of no catalog; its type is {@code TABLE}. Troupe's SQL is read-only queries: no transactions,
 * procedures, keys or indexes (their calls answer with no rows), and the catalogs of what it has none of
 * (privileges, procedures, functions, user-defined types) are not supported. Limits are 0, "none known".
 * Threadsafe.
 */
final class TroupeDatabaseMetaData implements DatabaseMetaData {

    /** The one schema, as Calcite's planner names it ({@code io.troupe.operators.sql.SqlPlanner}). */
    static final String SCHEMA = "troupe";

    private final TroupeConnection connection;
    private final MetadataRows rows;

    TroupeDatabaseMetaData(TroupeConnection connection) {
        this.connection = connection;
        this.rows = new MetadataRows(connection.troupe().catalog());
    }

    @Override
    public boolean allProceduresAreCallable() {
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() {
        return true;
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    @Override
    public String getUserName() {
        return "";
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    /** NULL sorts as the highest value (Calcite's default): last ascending, first descending. */
    @Override
    public boolean nullsAreSortedHigh() {
        return true;
    }

    @Override
    public boolean nullsAreSortedLow() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtStart() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() {
        return false;
    }

    @Override
    public String getDatabaseProductName() {
        return "Troupe";
    }

    @Override
    public String getDatabaseProductVersion() {
        return TroupeDriver.VERSION;
    }

    @Override
    public String getDriverName() {
        return "Troupe JDBC driver";
    }

    @Override
    public String getDriverVersion() {
        return TroupeDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return TroupeDriver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return TroupeDriver.MINOR_VERSION;
    }

    @Override
    public boolean usesLocalFiles() {
        return false;
    }

    @Override
    public boolean usesLocalFilePerTable() {
        return false;
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return false;
    }

    /** Names are kept as written and matched regardless of case. */
    @Override
    public boolean storesMixedCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public String getIdentifierQuoteString() {
        return "\"";
    }

    @Override
    public String getSQLKeywords() {
        return "LIMIT,OFFSET";
    }

    /**
     * The Open Group's numeric functions that Troupe takes with their meaning: not LOG (there the natural logarithm,
     * in Troupe, PostgreSQL and DuckDB the base-10 one), RAND or TRUNCATE (Troupe's are random() and trunc).
     */
    @Override
    public String getNumericFunctions() {
        return "ABS,ACOS,ASIN,ATAN,ATAN2,CEILING,COS,COT,DEGREES,EXP,FLOOR,LOG10,MOD,PI,POWER,RADIANS,ROUND,SIGN,SIN,"
                + "SQRT,TAN";
    }

    @Override
    public String getStringFunctions() {
        return "ASCII,CHAR_LENGTH,CHARACTER_LENGTH,CONCAT,LEFT,LENGTH,LOWER,LTRIM,POSITION,REPEAT,REPLACE,RIGHT,RTRIM,"
                + "SUBSTRING,UPPER";
    }

    @Override
    public String getSystemFunctions() {
        return "COALESCE";
    }

    /**
     * The Open Group's date functions Troupe has with their meaning; not DAYOFWEEK (theirs counts 1 for Sunday,
     * Troupe's is DuckDB's 0) nor WEEK (theirs is not the ISO week that Troupe's is).
     */
    @Override
    public String getTimeDateFunctions() {
        return "DAYNAME,DAYOFMONTH,DAYOFYEAR,EXTRACT,HOUR,MINUTE,MONTH,MONTHNAME,NOW,QUARTER,SECOND,YEAR";
    }

    /** The escape of {@code _} and {@code %} in the patterns of {@link #getTables} and {@link #getColumns}. */
    @Override
    public String getSearchStringEscape() {
        return MetadataRows.ESCAPE;
    }

    @Override
    public String getExtraNameCharacters() {
        return "";
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() {
        return true;
    }

    @Override
    public boolean nullPlusNonNullIsNull() {
        return true;
    }

    @Override
    public boolean supportsConvert() {
        return false;
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) {
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() {
        return true;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() {
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() {
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupBy() {
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() {
        return true;
    }

    @Override
    public boolean supportsLikeEscapeClause() {
        return true;
    }

    @Override
    public boolean supportsMultipleResultSets() {
        return false;
    }

    @Override
    public boolean supportsMultipleTransactions() {
        return false;
    }

    @Override
    public boolean supportsNonNullableColumns() {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() {
        return true;
    }

    @Override
    public boolean supportsCoreSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() {
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() {
        return false;
    }

    @Override
    public boolean supportsOuterJoins() {
        return true;
    }

    @Override
    public boolean supportsFullOuterJoins() {
        return true;
    }

    @Override
    public boolean supportsLimitedOuterJoins() {
        return true;
    }

    @Override
    public String getSchemaTerm() {
        return "schema";
    }

    @Override
    public String getProcedureTerm() {
        return "procedure";
    }

    @Override
    public String getCatalogTerm() {
        return "catalog";
    }

    @Override
    public boolean isCatalogAtStart() {
        return false;
    }

    @Override
    public String getCatalogSeparator() {
        return ".";
    }

    @Override
    public boolean supportsSchemasInDataManipulation() {
        return true;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsPositionedDelete() {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() {
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInExists() {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInIns() {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() {
        return true;
    }

    @Override
    public boolean supportsCorrelatedSubqueries() {
        return true;
    }

    @Override
    public boolean supportsUnion() {
        return true;
    }

    @Override
    public boolean supportsUnionAll() {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() {
        return true;
    }

    @Override
    public int getMaxBinaryLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() {
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() {
        return 0;
    }

    @Override
    public int getMaxConnections() {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() {
        return 0;
    }

    @Override
    public int getMaxIndexLength() {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() {
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() {
        return 0;
    }

    @Override
    public int getMaxRowSize() {
        return 0;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() {
        return false;
    }

    @Override
    public int getMaxStatementLength() {
        return 0;
    }

    @Override
    public int getMaxStatements() {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() {
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() {
        return 0;
    }

    @Override
    public int getMaxUserNameLength() {
        return 0;
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsTransactions() {
        return false;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return false;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() {
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() {
        return false;
    }

    @Override
    public ResultSet getProcedures(String x0, String x1, String x2) throws SQLException {
        throw JdbcErrors.unsupported("getProcedures");
    }

    @Override
    public ResultSet getProcedureColumns(String x0, String x1, String x2, String x3) throws SQLException {
        throw JdbcErrors.unsupported("getProcedureColumns");
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types) {
        return rows.tables(schemaPattern, tableNamePattern, types);
    }

    @Override
    public ResultSet getSchemas() {
        return rows.schemas(null);
    }

    @Override
    public ResultSet getCatalogs() {
        return rows.catalogs();
    }

    @Override
    public ResultSet getTableTypes() {
        return rows.tableTypes();
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
                                String columnNamePattern) {
        return rows.columns(schemaPattern, tableNamePattern, columnNamePattern);
    }

    @Override
    public ResultSet getColumnPrivileges(String x0, String x1, String x2, String x3) throws SQLException {
        throw JdbcErrors.unsupported("getColumnPrivileges");
    }

    @Override
    public ResultSet getTablePrivileges(String x0, String x1, String x2) throws SQLException {
        throw JdbcErrors.unsupported("getTablePrivileges");
    }

    @Override
    public ResultSet getBestRowIdentifier(String x0, String x1, String x2, int x3, boolean x4) throws SQLException {
        throw JdbcErrors.unsupported("getBestRowIdentifier");
    }

    @Override
    public ResultSet getVersionColumns(String x0, String x1, String x2) throws SQLException {
        throw JdbcErrors.unsupported("getVersionColumns");
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) {
        return rows.primaryKeys();
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) {
        return rows.foreignKeys();
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) {
        return rows.foreignKeys();
    }

    @Override
    public ResultSet getCrossReference(String x0, String x1, String x2, String x3, String x4, String x5)
            throws SQLException {
        throw JdbcErrors.unsupported("getCrossReference");
    }

    @Override
    public ResultSet getTypeInfo() {
        return rows.typeInfo();
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate) {
        return rows.indexInfo();
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean updatesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean insertsAreDetected(int type) {
        return false;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return false;
    }

    @Override
    public ResultSet getUDTs(String x0, String x1, String x2, int[] x3) throws SQLException {
        throw JdbcErrors.unsupported("getUDTs");
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public boolean supportsSavepoints() {
        return false;
    }

    @Override
    public boolean supportsNamedParameters() {
        return false;
    }

    @Override
    public boolean supportsMultipleOpenResults() {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return false;
    }

    @Override
    public ResultSet getSuperTypes(String x0, String x1, String x2) throws SQLException {
        throw JdbcErrors.unsupported("getSuperTypes");
    }

    @Override
    public ResultSet getSuperTables(String x0, String x1, String x2) throws SQLException {
        throw JdbcErrors.unsupported("getSuperTables");
    }

    @Override
    public ResultSet getAttributes(String x0, String x1, String x2, String x3) throws SQLException {
        throw JdbcErrors.unsupported("getAttributes");
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT
                || holdability == ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getDatabaseMajorVersion() {
        return TroupeDriver.MAJOR_VERSION;
    }

    @Override
    public int getDatabaseMinorVersion() {
        return TroupeDriver.MINOR_VERSION;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 3;
    }

    @Override
    public int getSQLStateType() {
        return DatabaseMetaData.sqlStateSQL;
    }

    @Override
    public boolean locatorsUpdateCopy() {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() {
        return false;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) {
        return rows.schemas(schemaPattern);
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() {
        return false;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() {
        return false;
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        throw JdbcErrors.unsupported("getClientInfoProperties");
    }

    @Override
    public ResultSet getFunctions(String x0, String x1, String x2) throws SQLException {
        throw JdbcErrors.unsupported("getFunctions");
    }

    @Override
    public ResultSet getFunctionColumns(String x0, String x1, String x2, String x3) throws SQLException {
        throw JdbcErrors.unsupported("getFunctionColumns");
    }

    @Override
    public ResultSet getPseudoColumns(String x0, String x1, String x2, String x3) throws SQLException {
        throw JdbcErrors.unsupported("getPseudoColumns");
    }

    @Override
    public boolean generatedKeyAlwaysReturned() {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return JdbcErrors.unwrap(this, type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
