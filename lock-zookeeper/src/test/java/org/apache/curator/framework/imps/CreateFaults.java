package org.apache.curator.framework.imps;

import java.lang.reflect.Field;
import java.util.List;
import java.util.function.Consumer;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.CreateBuilder;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * Reaches into a Curator create for fault injection, as Curator's tests do: its own test switch for a lost create
 * reply (the node is created on the server, the client sees a connection loss), and a hook between Curator's steps
 * when it re-creates a missing parent.
 */
public final class CreateFaults {

    private CreateFaults() {
    }

    /** Makes {@code builder}'s create lose its reply once. */
    public static void loseReplyOf(CreateBuilder builder) {
        ((CreateBuilderImpl) builder).failNextCreateForTesting = true;
    }

    /**
     * Runs {@code hook} with each path Curator is about to create as a parent of {@code builder}'s node (and with the
     * node's own path), in Curator's thread, after Curator saw that path missing and its ancestors present and just
     * before it sends that path's create: the window in which the server may delete an emptied ancestor. Nodes get the
     * open ACL (for stores without credentials).
     */
    public static void beforeCreating(CreateBuilder builder, Consumer<String> hook) {
        ACLProvider acls = new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return ZooDefs.Ids.OPEN_ACL_UNSAFE;
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                hook.accept(path);
                return ZooDefs.Ids.OPEN_ACL_UNSAFE;
            }
        };
        try {
            Field acling = CreateBuilderImpl.class.getDeclaredField("acling");
            acling.setAccessible(true);
            acling.set(builder, new ACLing(acls));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Curator's create builder has no ACL field to hook into", e);
        }
    }
}
