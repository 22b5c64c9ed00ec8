package io.distlock.zookeeper;

import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The ACL of every node a store with digest credentials creates: all rights to the creating user only, so clients
 * without the credentials can neither read, delete nor queue on the locks.
 */
final class DigestAcls implements ACLProvider {

    @Override
    public List<ACL> getDefaultAcl() {
        return ZooDefs.Ids.CREATOR_ALL_ACL;
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        return ZooDefs.Ids.CREATOR_ALL_ACL;
    }
}
