/**
 * The wire format of a batch: {@link io.troupe.transport.codec.BatchDescriptor} (the layout as
 * constants and a diagram) and {@link io.troupe.transport.codec.BatchCodec} (encode into and decode
 * from Agrona buffers). Knows the batch and type classes of the operators and nothing else: no
 * channels, no Aeron publications, no actors.
 */
package io.troupe.transport.codec;
