package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script run by its SHA-1 ({@code EVALSHA}). When the server's script cache was emptied (restart, failover,
 * {@code SCRIPT FLUSH}) the {@code NOSCRIPT} reply is answered by sending the script once with {@code EVAL}, which
 * also caches it again: the caller never sees it. Safe because a {@code NOSCRIPT} reply means nothing ran.
 */
final class LuaScript {

    private final String name;
    private final String source;
    private final String sha;
    private final byte[] shaBytes;
    private final byte[] sourceBytes;

    LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha = sha1(source);
        this.shaBytes = sha.getBytes(StandardCharsets.US_ASCII);
        this.sourceBytes = source.getBytes(StandardCharsets.UTF_8);
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
     * Runs an encoded {@code call} on the node that owns its keys. Integer and array replies come back as with
     * {@link #run(UnifiedJedis, List, List)}; a bulk string reply would come back as {@code byte[]}.
     */
    Object run(UnifiedJedis client, LockCalls.BinaryCall call) {
        try {
            return client.evalsha(shaBytes, call.keys(), call.args());
        } catch (JedisDataException e) {
            if (isNoScript(e)) {
                return client.eval(sourceBytes, call.keys(), call.args());
            }
            throw e;
        }
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
