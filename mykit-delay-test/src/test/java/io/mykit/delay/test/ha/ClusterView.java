package io.mykit.delay.test.ha;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One node's answer to GET /cluster (the {@code data} of the API's usual envelope), as the HA design documents it:
 *
 * <pre>
 * {"mode":"cluster","node":"n1","zookeeper":"CONNECTED","leader":null,"members":["n1","n2"],"fencedCalls":0,
 *  "restores":0,"buckets":[{"bucket":0,"owner":"n1","token":"00000000004294967312","pumping":true}, ...]}
 * </pre>
 */
record ClusterView(
        String mode,
        String node,
        String zookeeper,
        String leader,
        List<String> members,
        long fencedCalls,
        long restores,
        List<Bucket> buckets) {

    /** This node's view of one bucket: owner and token from ZooKeeper, pumping = its own timer of it runs. */
    record Bucket(int bucket, String owner, String token, boolean pumping) {}

    /** Reads the JSON; a field the contract names but the answer lacks fails loudly. */
    static ClusterView parse(JsonNode json) {
        List<String> members = new ArrayList<>();
        required(json, "members").forEach(member -> members.add(member.asText()));
        List<Bucket> buckets = new ArrayList<>();
        for (JsonNode bucket : required(json, "buckets")) {
            JsonNode owner = required(bucket, "owner");
            JsonNode token = required(bucket, "token");
            buckets.add(new Bucket(
                    required(bucket, "bucket").asInt(),
                    owner.isNull() ? null : owner.asText(),
                    token.isNull() ? null : token.asText(),
                    required(bucket, "pumping").asBoolean()));
        }
        JsonNode leader = required(json, "leader");
        return new ClusterView(
                required(json, "mode").asText(),
                required(json, "node").asText(),
                required(json, "zookeeper").asText(),
                leader.isNull() ? null : leader.asText(),
                List.copyOf(members),
                required(json, "fencedCalls").asLong(),
                required(json, "restores").asLong(),
                List.copyOf(buckets));
    }

    /** Buckets this node's timers pump right now. */
    Set<Integer> pumping() {
        Set<Integer> pumping = new TreeSet<>();
        buckets.forEach(bucket -> {
            if (bucket.pumping()) {
                pumping.add(bucket.bucket());
            }
        });
        return pumping;
    }

    private static JsonNode required(JsonNode json, String field) {
        if (!json.has(field)) {
            throw new IllegalStateException("GET /cluster answer lacks \"" + field + "\": " + json);
        }
        return json.get(field);
    }
}
