package io.troupe.actors.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.UserCall;

import java.util.List;

/**
 * A call of a function of one's own: its name and its arguments, never the function. The node that reads it gets
 * an unbound call, which its Troupe binds to its own function of that name (or refuses, naming it) when it takes
 * the plan. Stateless.
 */
final class UserCallSerializer extends Serializer<UserCall> {

    UserCallSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output out, UserCall call) {
        out.writeString(call.name());
        kryo.writeClassAndObject(out, call.args());
    }

    @Override
    public UserCall read(Kryo kryo, Input in, Class<? extends UserCall> type) {
        String name = in.readString();
        if (!(kryo.readClassAndObject(in) instanceof List<?> args)) {
            throw new KryoException("the call of " + name + " has no argument list");
        }
        return new UserCall(name, args.stream().map(Expr.class::cast).toList(), null);
    }
}
