/**
 * Troupe's JDBC driver: {@code jdbc:troupe:} URLs for an embedded Troupe, so that JVM code and tools that
 * speak JDBC query Troupe as they query any database ({@link io.troupe.jdbc.TroupeDriver} says the URLs).
 *
 * <h2>A thin driver of our own, not Avatica</h2>
 * Calcite's JDBC framework, Avatica, would have cost no jar: avatica-core 1.28.0 is in target/lib already,
 * as a dependency of calcite-core. It was not chosen, for three reasons.
 * <ul>
 *   <li>Avatica's embedded path is its remote protocol's SPI ({@code Meta}: statement handles, signatures,
 *       frames of rows, {@code TypedValue}s), built for a server that ships rows to a client. Troupe would
 *       have fed its batches into frames and its types into Avatica's representations, then Avatica's cursor
 *       would have converted them back: two conversions per value, and JDBC's behaviour (conversions, dates,
 *       cancel) that is Avatica's rather than Troupe's.</li>
 *   <li>What a JDBC user most needs from Troupe is its own: a result that streams with back-pressure and
 *       cancels its query when closed ({@code Troupe.stream}), a query timeout and a cancel from another
 *       thread that stop the query ({@code QueryStream.cancel}), a statement planned once
 *       ({@code Troupe.prepareSql}), SQLStates from Troupe's errors. In Avatica, each of these is glue in a
 *       {@code Meta} of our own anyway.</li>
 *   <li>Startup: loading Avatica's driver, connection, result set, statement, cursor and {@code MetaImpl}
 *       classes took 780-970 ms on this machine (2 busy cores, warm page cache; {@code Class.forName} of 8
 *       classes), this package's driver, connection, result set, statement and conversions 210-240 ms.</li>
 * </ul>
 * Troupe has seven types ({@link io.troupe.jdbc.JdbcTypes}), so the conversions JDBC asks for
 * ({@link io.troupe.jdbc.JdbcValues}) are short; the price is the interfaces' size, most of it methods that
 * refuse ({@link io.troupe.jdbc.ForwardOnlyResultSet}, the tail of {@link io.troupe.jdbc.TroupePreparedStatement})
 * or constants ({@link io.troupe.jdbc.TroupeDatabaseMetaData}).
 *
 * <h2>What it does</h2>
 * Queries only, forward-only and read-only result sets, auto-commit without transactions. Unsupported JDBC
 * features throw {@link java.sql.SQLFeatureNotSupportedException} naming the method; errors carry a
 * SQLState ({@link io.troupe.jdbc.JdbcErrors} has the table) and Troupe's message, a SQL error's line,
 * column and caret included.
 *
 * <h2>Objects and threads</h2>
 * <pre>
 *   TroupeDriver ── connect ──&gt; TroupeConnection (one Troupe: registered, or the driver's own, shared)
 *                                 ├─ TroupeStatement / TroupePreparedStatement (PreparedSql)
 *                                 │    └─ TroupeResultSet (a QueryStream, one batch in hand)
 *                                 └─ TroupeDatabaseMetaData (MetadataRows over the catalog)
 * </pre>
 * Closing an object closes what it opened. A statement and its result set are used by one thread at a time;
 * {@code Statement.cancel} may come from any thread, and so may opening and closing statements and
 * closing a connection.
 */
package io.troupe.jdbc;
