package io.distlock.redis;

/**
 * Where a store keeps what. Every key of a name is the prefix {@code P}, then the name's hash tag, then a kind:
 * {@code P{NAME}} the lock key (value: owner token and owner description, with the lease as its TTL),
 * {@code P{NAME}:fence} its fencing counter (kept past every lease, and until the server clock has passed it: see
 * {@link CounterRetention}), {@code P{NAME}:waiting} the
 * waiter queue a refused acquire joins (the next release wakes its head), on a Cluster the short-lived release
 * tombstone {@code P{NAME}:released:TOKEN}, and the semaphores' keys {@code P{NAME}:sem},
 * {@code P{NAME}:semlimit}, ... (see {@link Kind}); besides, the restart-guard marker {@code Pguard}, the release
 * channel {@code Preleased:NAME} and each client's wake channel {@code Pwake:ID}. The keys of a name share its hash
 * tag, so its scripts run on Redis Cluster. A name containing {@code '}'} cannot be its own hash tag: it gets the tag
 * {@code {#HASH}} followed by the name's length, a colon and the name.
 *
 * <p>No two (prefix, kind, name) triples give one key, whatever the prefixes (two stores on one server never touch
 * each other's keys): a prefix holds no {@code '{'}, so a key's first {@code '{'} ends its prefix; after the tag's
 * {@code '}'} (a plain name holds none; a hashed name's length says where it ends) the rest is the kind, and the
 * kinds differ; the guard marker is the only key without a {@code '{'}.
 */
final class RedisKeys {

    /** What a key of a name holds: the text after the name's tag. */
    enum Kind {
        LOCK(""),
        FENCE(":fence"),
        WAITING(":waiting"),
        /** Followed by the owner token. */
        RELEASED(":released:"),
        SEM_HOLDERS(":sem"),
        SEM_LIMIT(":semlimit"),
        SEM_FENCE(":semfence"),
        SEM_FENCES(":semfences"),
        SEM_WAITING(":semwaiting"),
        /** Followed by the owner token. */
        SEM_RELEASED(":semreleased:"),
        /** Redlock's semaphores: followed by the slot's number. */
        SEM_SLOT(":semslot:");

        private final String suffix;

        Kind(String suffix) {
            this.suffix = suffix;
        }

        /** The text after the name's tag. */
        String suffix() {
            return suffix;
        }
    }

    private final String prefix;

    RedisKeys(String prefix) {
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("a key prefix must not contain '{' or '}', got '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    /** The prefix every key and channel starts with. */
    String prefix() {
        return prefix;
    }

    /** The key of {@code kind} for {@code name}. */
    String key(Kind kind, String name) {
        return prefix + tagged(name) + kind.suffix;
    }

    /** The lock key of {@code name}. */
    String lock(String name) {
        return key(Kind.LOCK, name);
    }

    /** The fencing counter of {@code name}. */
    String fence(String name) {
        return key(Kind.FENCE, name);
    }

    /**
     * The marker a refused acquire of {@code name} leaves so that the next release publishes (no marker: nobody
     * waits, no message). In the lock's slot.
     */
    String waiting(String name) {
        return key(Kind.WAITING, name);
    }

    /**
     * The tombstone a Cluster release leaves for a few seconds, so a re-sent release of the lease with
     * {@code ownerToken} (Jedis retries after a lost reply) is known to have succeeded. In the lock's slot.
     */
    String releasedTombstone(String name, String ownerToken) {
        return key(Kind.RELEASED, name) + ownerToken;
    }

    /** The restart-guard marker: the server's history and the time until which nothing is granted. */
    String guard() {
        return prefix + "guard";
    }

    /** The channel a release of {@code name} is published on. */
    String channel(String name) {
        return prefix + "released:" + name;
    }

    /**
     * The channel on which a release wakes the waiters of the client queued as {@code waiterId} (the message is the
     * lock's name). Outside {@link #channelPattern()}: only that client subscribes to it.
     */
    String wakeChannel(String waiterId) {
        return prefix + "wake:" + waiterId;
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

    /**
     * A SCAN pattern for the keys of names starting with {@code namePrefix} (of every kind: {@link #nameOf} picks
     * those of one kind).
     */
    String pattern(String namePrefix) {
        String p = namePrefix == null ? "" : namePrefix;
        return escapeGlob(prefix + "{") + (p.indexOf('}') >= 0 ? "" : escapeGlob(p)) + "*";
    }

    /** The name whose key of {@code kind} {@code key} is, or null if it is no such key of this prefix. */
    String nameOf(Kind kind, String key) {
        if (!key.startsWith(prefix + "{") || !key.endsWith(kind.suffix)) {
            return null;
        }
        String rest = key.substring(prefix.length(), key.length() - kind.suffix.length()); // the tag and the name
        int close = rest.indexOf('}');
        if (close < 0) {
            return null;
        }
        if (close == rest.length() - 1) {
            String name = rest.substring(1, close);
            return tagged(name).equals(rest) ? name : null;
        }
        int colon = rest.indexOf(':', close);
        if (colon < 0) {
            return null;
        }
        String name = rest.substring(colon + 1);
        return tagged(name).equals(rest) ? name : null;
    }

    /**
     * {@code name} as its hash tag and, where the tag is not the name itself, the name after it: every key of one
     * lock (or one semaphore) lands in one Cluster slot, and the text after it is the key's kind alone.
     */
    static String tagged(String name) {
        if (name.indexOf('}') < 0) {
            return "{" + name + "}";
        }
        return "{#" + Integer.toHexString(name.hashCode()) + "}" + name.length() + ":" + name;
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
