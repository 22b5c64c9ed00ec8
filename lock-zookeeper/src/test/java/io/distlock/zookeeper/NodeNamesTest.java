package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.common.PathUtils;
import org.junit.jupiter.api.Test;

class NodeNamesTest {

    private static final List<String> NAMES = List.of("orders:42", "a/b", "/a", "a/b/", ".", "..", "...", "a.b",
            "with space", "tab\there", "ünïcødé ✓ 锁", "emoji 🔒", "a%2Fb", "a%", "%", "a\\b", "*?", "{tag}x",
            "zookeeper", "\u0001control\u007F", "_c_looks-protected-lock-0000000001", "x".repeat(200));

    @Test
    void everyNameBecomesAValidNodeNameAndComesBack() {
        for (String name : NAMES) {
            String node = NodeNames.encode(name);
            PathUtils.validatePath(ZooKeeperBackend.ROOT + "/" + node);
            assertThat(node).doesNotContain("/").isNotIn(".", "..");
            assertThat(NodeNames.decode(node)).as("round trip of %s", name).isEqualTo(name);
        }
    }

    @Test
    void distinctNamesNeverShareANode() {
        Set<String> nodes = new HashSet<>();
        for (String name : NAMES) {
            assertThat(nodes.add(NodeNames.encode(name))).as("node of %s is unique", name).isTrue();
        }
    }

    @Test
    void plainNamesStayReadable() {
        assertThat(NodeNames.encode("orders:42_a-b")).isEqualTo("orders:42_a-b");
        assertThat(NodeNames.encode("a.b/c")).isEqualTo("a%2Eb%2Fc");
    }

    @Test
    void theLongestNameFitsComfortablyInAPath() {
        String worst = "🔒".repeat(NodeNames.MAX_NAME_LENGTH / 2);
        assertThat(worst).hasSize(NodeNames.MAX_NAME_LENGTH);
        String node = NodeNames.encode(worst);
        assertThat(node).hasSize(NodeNames.MAX_NAME_LENGTH / 2 * 12);
        assertThat(NodeNames.decode(node)).isEqualTo(worst);
    }

    @Test
    void unpairedSurrogatesAreRefusedRatherThanMerged() {
        assertThatThrownBy(() -> NodeNames.encode("a\uD800b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate");
    }

    @Test
    void foreignNodeNamesAreRecognised() {
        for (String foreign : List.of("a.b", "a%2", "a%zz", "a%41", "caf\u00e9", "%C3")) {
            assertThatThrownBy(() -> NodeNames.decode(foreign)).as(foreign)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
