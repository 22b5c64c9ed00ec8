package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script run by its SHA-1 ({@code EVALSHA}). When the server's script cache was emptied (restart, failover,
 * {@code SCRIPT FLUSH}) the {@code NOSCRIPT} reply is answered by sending the script once with {@code EVAL}, which
 * also caches it again: the caller never sees it. Safe because a {@code NOSCRIPT} reply means nothing ran.
 */
final class LuaScript {

    /** The key counts of {@link #call} calls, encoded once: the lock scripts take a handful of keys. */
    private static final Rawable[] KEY_COUNTS = new Rawable[8];

    static {
        for (int i = 0; i < KEY_COUNTS.length; i++) {
            KEY_COUNTS[i] = SentBytes.of(Integer.toString(i));
        }
    }

    private final String name;
    private final String source;
    private final String sha;
    private final Rawable shaArg;
    private final Rawable sourceArg;

    LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
        this.shaArg = new SentBytes(sha.getBytes(StandardCharsets.US_ASCII));
        this.sourceArg = SentBytes.of(source);
    }

    /** Runs the script on the node that owns {@code keys}. */
    Object run(UnifiedJedis client, List<String> keys, List<String> args) {
        try {
            return client.evalsha(sha, keys, args);
        } catch (JedisNoScriptException e) {
            return client.eval(source, keys, args);
        } catch (JedisDataException e) {
            if (isNoScript(e)) {
                return client.eval(source, keys, args);
            }
            throw e;
        }
    }

    /** Runs {@code call} on the node that owns its keys. */
    Object run(UnifiedJedis client, LockCalls.Call call) {
        return run(client, call.keys(), call.args());
    }

    /**
     * Starts an encoded call of this script with {@code keyCount} keys: add them with
     * {@link CommandArguments#key(Object)}, then the {@code ARGV} with {@link CommandArguments#add(Rawable)}, and send
     * it with {@link #run(UnifiedJedis, CommandArguments)}. Built on {@link Rawable}s that are sent as they are (a
     * {@link SentBytes} is not copied), so a call costs no encoding and no copy of its keys and arguments.
     */
    CommandArguments call(int keyCount) {
        return new CommandArguments(Protocol.Command.EVALSHA).add(shaArg).add(keyCount(keyCount));
    }

    /**
     * Runs a {@link #call} on the node that owns its keys ({@code EVALSHA}, or {@code EVAL} with the same keys and
     * arguments after a {@code NOSCRIPT}). Integer and array replies come back as with
     * {@link #run(UnifiedJedis, List, List)}; a bulk string reply would come back as {@code byte[]}.
     */
    Object run(UnifiedJedis client, CommandArguments call) {
        try {
            return client.executeCommand(new CommandObject<>(call, BuilderFactory.RAW_OBJECT));
        } catch (JedisDataException e) {
            if (isNoScript(e)) {
                return client.executeCommand(new CommandObject<>(withSource(call), BuilderFactory.RAW_OBJECT));
            }
            throw e;
        }
    }

    /** {@code call} as an {@code EVAL} of the source: the same keys (as keys, for routing) and arguments. */
    private CommandArguments withSource(CommandArguments call) {
        int keyCount = Integer.parseInt(new String(call.get(2).getRaw(), StandardCharsets.US_ASCII));
        CommandArguments eval = new CommandArguments(Protocol.Command.EVAL).add(sourceArg).add(call.get(2));
        for (int i = 3; i < call.size(); i++) {
            if (i < 3 + keyCount) {
                eval.key(call.get(i));
            } else {
                eval.add(call.get(i));
            }
        }
        return eval;
    }

    private static Rawable keyCount(int n) {
        return n < KEY_COUNTS.length ? KEY_COUNTS[n] : SentBytes.of(Integer.toString(n));
    }

    /** Queues the script by SHA in a pipeline. */
    Response<Object> queue(AbstractPipeline pipeline, List<String> keys, List<String> args) {
        return pipeline.evalsha(sha, keys, args);
    }

    /** Queues the full script text in a pipeline (after a {@code NOSCRIPT}). */
    Response<Object> queueSource(AbstractPipeline pipeline, List<String> keys, List<String> args) {
        return pipeline.eval(source, keys, args);
    }

    /** Whether {@code e} is the server's "script not cached" reply. */
    static boolean isNoScript(Throwable e) {
        return e instanceof JedisNoScriptException
                || (e instanceof JedisDataException && e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT"));
    }

    /** The script's SHA-1, as the server names it. */
    String sha() {
        return sha;
    }

    @Override
    public String toString() {
        return "LuaScript[" + name + ", " + sha + "]";
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e);
        }
    }
}
