/**
 * The wire: how plans and control messages cross JVMs. {@link io.troupe.actors.wire.WireCodec}
 * writes an object with Kryo after a header, and reads it back only from a node of the same cluster,
 * protocol version and registry; every class it may write is registered, with a fixed id, in
 * {@link io.troupe.actors.wire.WireRegistry}. Nothing uses Java serialization.
 *
 * <h2>Payload</h2>
 * <pre>
 * field        encoding                  value
 * magic        4 bytes                   'T' 'R' 'P' 'W'
 * protocol     Kryo var-int              WireRegistry.PROTOCOL_VERSION (1)
 * cluster      Kryo string               the cluster's name (a node's: its actor system's name)
 * fingerprint  int, little-endian        WireRegistry.fingerprint(): CRC32 of the registrations
 * body         Kryo class id (var-int),  the object, as the serializer of that registration writes it
 *              then the object
 * </pre>
 * Magic, protocol and cluster come first in every version, so that a node can say what a payload is
 * before it refuses it. A reader refuses, in this order and naming both sides: fewer than four bytes or
 * another magic ("not a Troupe wire payload"); another protocol version or cluster ("refused a payload
 * from cluster 'b' (wire protocol 2): this node is in cluster 'a' (wire protocol 1)"); another
 * fingerprint (the nodes run different builds); then a body that does not parse, or bytes left after
 * it. A plan of a few nodes is some tens of bytes; a worker's report, under twenty.
 *
 * <h2>Registration</h2>
 * Kryo runs with registration required and references off. Every class has an explicit id in
 * WireRegistry (Kryo's own 0-8 for the primitives and String; Troupe's from 16, in ranges by kind);
 * an id is never reused or moved. An object of any other class is refused when sent, with the class's
 * name, the registry to add it to, and the fields it was found in. Records are written through their
 * canonical constructor (Kryo's RecordSerializer: the constructor's checks run on the receiver too),
 * enums by ordinal, values (BigDecimal with its scale, LocalDate, the JDK's immutable lists) by
 * serializers made for them. Three registrations serve a family of classes: {@code Plan} (the tree
 * written by {@code PlanSerializer} in the plan package, which tags its own package-private nodes),
 * typed {@code ActorRef} (Pekko's path and uid, resolved by the receiving actor system) and
 * {@code Throwable} (class name, message, top frames and causes, read back as a
 * {@link io.troupe.actors.wire.RemoteFailure}: no sender class is instantiated).
 *
 * <h2>Pekko</h2>
 * {@link io.troupe.actors.wire.WireSerializer} (a SerializerWithStringManifest, id 848280, empty
 * manifest: the payload names its class) serializes every {@code WireMessage}. reference.conf binds
 * it and keeps {@code pekko.actor.allow-java-serialization = off}, so every actor system with Troupe
 * on its class path has them, Troupe's own or a host's. Its cluster name is the actor system's name,
 * which every node of a Pekko cluster shares. Artery copies the bytes into its buffer; Pekko's
 * ByteBufferSerializer would save that copy, which control messages this small do not need.
 *
 * <h2>Adding a class</h2>
 * <ol>
 *   <li>A control message is a record (or an enum singleton) that implements
 *       {@link io.troupe.actors.wire.WireMessage}, whose fields are primitives, String, BigDecimal,
 *       LocalDate, {@code List.copyOf} lists, registered records and enums, plans and expressions,
 *       typed actor refs or Throwables.</li>
 *   <li>Give it the next free id of its range in WireRegistry. A new class, a renamed or retyped
 *       record component and a new or moved enum constant change the fingerprint by themselves, so
 *       nodes of the old and the new build refuse each other rather than misread.</li>
 *   <li>A new plan node takes the next tag in {@code PlanSerializer.Kind}, with its fields in that
 *       serializer's write and read; PlanWireTest fails until every node class has a tag.</li>
 *   <li>Anything that writes differently without a change the fingerprint sees (a serializer's
 *       layout, a plan node's fields, the header) raises {@code WireRegistry.PROTOCOL_VERSION}.</li>
 * </ol>
 *
 * <h2>What a plan holds</h2>
 * Plans are data: names, numbers, enums, expression records and child plans, with no catalog,
 * function object or lambda (tables are named and resolved where the plan is validated). The one
 * opening is {@code Literal}'s public constructor, which takes any Object as the value; the wire
 * carries the value classes {@code Expr.lit} makes (Integer, Short, Byte, Long, Double, Float, Boolean,
 * String, LocalDate, BigDecimal) and refuses any other by name.
 */
package io.troupe.actors.wire;
