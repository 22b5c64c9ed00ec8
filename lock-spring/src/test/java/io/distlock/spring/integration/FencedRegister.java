package io.distlock.spring.integration;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource that remembers the highest fencing token it has seen and refuses writes with a lower one, as a
 * downstream service guarding itself against a deposed leader would. It also notes a violation if two writers
 * present the same token, which would mean the lock handed one token to two holders.
 */
final class FencedRegister {

    private long highest;
    private String highestWriter;
    private long accepted;
    private long refused;
    private final List<String> violations = new ArrayList<>();

    /** Writes as {@code writer} with {@code token}; false if refused as stale. */
    synchronized boolean write(long token, String writer) {
        if (token < highest) {
            refused++;
            return false;
        }
        if (token == highest && !writer.equals(highestWriter)) {
            violations.add("token " + token + " presented by " + highestWriter + " and " + writer);
        }
        highest = token;
        highestWriter = writer;
        accepted++;
        return true;
    }

    synchronized long accepted() {
        return accepted;
    }

    synchronized long refused() {
        return refused;
    }

    synchronized String lastWriter() {
        return highestWriter;
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }
}
