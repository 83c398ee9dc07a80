package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

/**
 * Writes any Throwable as data (its class name, message, top stack frames, and its causes the same
 * way) and reads it back as a {@link RemoteFailure}: the wire form of a failure report, with no Java
 * serialization and no sender class instantiated on the receiver. A RemoteFailure sent on keeps the
 * class name of the original. Stateless.
 */
final class FailureSerializer extends Serializer<Throwable> {

    /**
     * Frames kept per exception: where it was thrown. A StackOverflowError holds 1024 frames
     * (the JVM's default), most of them the same few; the top of the stack says where.
     */
    static final int MAX_FRAMES = 128;
    /** Causes kept: the chain a query failure carries is two or three deep; this bounds a cyclic one. */
    static final int MAX_CAUSES = 8;

    FailureSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output out, Throwable failure) {
        write(out, failure, 0);
    }

    private static void write(Output out, Throwable failure, int depth) {
        out.writeString(failure instanceof RemoteFailure r ? r.originClass() : failure.getClass().getName());
        out.writeString(failure.getMessage());
        StackTraceElement[] frames = failure.getStackTrace();
        int kept = Math.min(frames.length, MAX_FRAMES);
        out.writeVarInt(kept, true);
        for (int i = 0; i < kept; i++) {
            StackTraceElement f = frames[i];
            out.writeString(f.getClassName());
            out.writeString(f.getMethodName());
            out.writeString(f.getFileName());
            out.writeVarInt(f.getLineNumber(), false);
        }
        Throwable cause = failure.getCause();
        boolean more = cause != null && cause != failure && depth + 1 < MAX_CAUSES;
        out.writeBoolean(more);
        if (more) {
            write(out, cause, depth + 1);
        }
    }

    @Override
    public Throwable read(Kryo kryo, Input in, Class<? extends Throwable> type) {
        return read(in, 0);
    }

    private static RemoteFailure read(Input in, int depth) {
        RemoteFailure failure = new RemoteFailure(in.readString(), in.readString());
        int kept = in.readVarInt(true);
        if (kept < 0 || kept > MAX_FRAMES) {
            throw new KryoException("a failure with " + kept + " frames; at most "
                    + MAX_FRAMES + " are sent");
        }
        StackTraceElement[] frames = new StackTraceElement[kept];
        for (int i = 0; i < kept; i++) {
            frames[i] = new StackTraceElement(in.readString(), in.readString(), in.readString(), in.readVarInt(false));
        }
        failure.setStackTrace(frames);
        if (in.readBoolean()) {
            if (depth + 1 >= MAX_CAUSES) {
                throw new KryoException("a failure with more than " + MAX_CAUSES + " causes");
            }
            failure.initCause(read(in, depth + 1));
        }
        return failure;
    }
}
