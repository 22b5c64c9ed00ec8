package org.apache.curator.framework.imps;

import org.apache.curator.framework.api.CreateBuilder;

/**
 * Reaches Curator's own test switch for a lost create reply, as Curator's tests do: the next create reaches the
 * server and succeeds there, but the client sees a connection loss instead of the reply.
 */
public final class CreateFaults {

    private CreateFaults() {
    }

    /** Makes {@code builder}'s create lose its reply once. */
    public static void loseReplyOf(CreateBuilder builder) {
        ((CreateBuilderImpl) builder).failNextCreateForTesting = true;
    }
}
