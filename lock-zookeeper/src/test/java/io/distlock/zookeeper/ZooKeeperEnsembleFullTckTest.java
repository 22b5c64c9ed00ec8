package io.distlock.zookeeper;

import org.junit.jupiter.api.Tag;

/**
 * The whole kit, untrimmed, against a 3-node ensemble: separate client JVMs and 10,000 names. Tagged {@code slow}
 * (about two minutes on a busy 2-core machine); run it with
 * {@code ./mvnw -pl lock-zookeeper verify -Dsurefire.excludedGroups= -Dtest=ZooKeeperEnsembleFullTckTest}.
 */
@Tag("slow")
class ZooKeeperEnsembleFullTckTest extends EnsembleTckBase {
}
