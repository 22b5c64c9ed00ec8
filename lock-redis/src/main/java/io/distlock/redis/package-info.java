/**
 * The Redis store: {@code redis://}, {@code rediss://}, {@code redis-sentinel://}, {@code redis-cluster://} and
 * {@code redlock://} URIs, on Jedis. Acquire is one Lua script ({@code SET NX PX} plus a fencing counter), release
 * and renew are compare-on-token scripts, waiters wake on pub/sub release messages.
 * {@link io.distlock.redis.RedisFence} is the resource side of fencing for data kept in Redis.
 */
package io.distlock.redis;
