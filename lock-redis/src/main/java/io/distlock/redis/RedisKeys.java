package io.distlock.redis;

/**
 * Where a store keeps what: for lock {@code NAME} and prefix {@code P}, the lock key {@code P{NAME}} (value: owner
 * token and owner description, with the lease as its TTL), the fencing counter {@code Pfence:{NAME}} (no TTL: it
 * must outlive every lease), the waiting marker {@code Pwaiting:{NAME}} (a refused attempt's: the next release
 * publishes), the release channel {@code Preleased:NAME}, the restart-guard marker {@code Pguard},
 * and on a Cluster the short-lived release tombstone {@code Preleased:{NAME}:TOKEN}. The keys of a lock share the
 * hash tag {@code {NAME}}, so its scripts run on Redis Cluster. A name containing {@code '}'} cannot be its own hash
 * tag; it gets the tag {@code {#HASH}} followed by the name.
 */
final class RedisKeys {

    private final String prefix;

    RedisKeys(String prefix) {
        this.prefix = prefix;
    }

    /** The prefix every key and channel starts with. */
    String prefix() {
        return prefix;
    }

    /** The lock key of {@code name}. */
    String lock(String name) {
        return plainTag(name) ? prefix + "{" + name + "}" : prefix + tagged(name);
    }

    /** The fencing counter of {@code name}. */
    String fence(String name) {
        return plainTag(name) ? prefix + "fence:{" + name + "}" : prefix + "fence:" + tagged(name);
    }

    /**
     * The marker a refused acquire of {@code name} leaves so that the next release publishes (no marker: nobody
     * waits, no message). In the lock's slot.
     */
    String waiting(String name) {
        return plainTag(name) ? prefix + "waiting:{" + name + "}" : prefix + "waiting:" + tagged(name);
    }

    /**
     * The tombstone a Cluster release leaves for a few seconds, so a re-sent release of the lease with
     * {@code ownerToken} (Jedis retries after a lost reply) is known to have succeeded. In the lock's slot.
     */
    String releasedTombstone(String name, String ownerToken) {
        return prefix + "released:" + tagged(name) + ":" + ownerToken;
    }

    /** The restart-guard marker: the server process and time until which nothing is granted. */
    String guard() {
        return prefix + "guard";
    }

    /** The channel a release of {@code name} is published on. */
    String channel(String name) {
        return prefix + "released:" + name;
    }

    /** The pattern matching every release channel of this prefix. */
    String channelPattern() {
        return escapeGlob(prefix + "released:") + "*";
    }

    /** The lock name of a release channel, or null if the channel is not one of ours. */
    String nameOfChannel(String channel) {
        String head = prefix + "released:";
        return channel.startsWith(head) ? channel.substring(head.length()) : null;
    }

    /** A SCAN pattern for the lock keys of names starting with {@code namePrefix}. */
    String lockPattern(String namePrefix) {
        String p = namePrefix == null ? "" : namePrefix;
        return escapeGlob(prefix + "{") + (p.indexOf('}') >= 0 ? "" : escapeGlob(p)) + "*";
    }

    /** The lock name of a lock key, or null if the key is not a lock key of this prefix. */
    String nameOfLockKey(String key) {
        if (!key.startsWith(prefix + "{")) {
            return null;
        }
        String rest = key.substring(prefix.length() + 1);
        int close = rest.indexOf('}');
        if (close < 0) {
            return null;
        }
        if (close == rest.length() - 1) {
            return rest.substring(0, close);
        }
        return rest.startsWith("#") ? rest.substring(close + 1) : null;
    }

    /**
     * Whether {@code name} is its own hash tag ({@code {name}}, see {@link #tagged}): then the keys above are built in
     * one concatenation, without the tag as a string of its own on every acquire and release.
     */
    private static boolean plainTag(String name) {
        return name.indexOf('}') < 0;
    }

    /** {@code name} as its hash tag: every key of one lock (or one semaphore) lands in one Cluster slot. */
    static String tagged(String name) {
        if (name.indexOf('}') < 0) {
            return "{" + name + "}";
        }
        return "{#" + Integer.toHexString(name.hashCode()) + "}" + name;
    }

    /** Escapes Redis glob characters so {@code s} matches only itself. */
    static String escapeGlob(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }
}
