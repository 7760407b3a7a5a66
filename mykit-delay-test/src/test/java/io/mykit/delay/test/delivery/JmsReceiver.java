package io.mykit.delay.test.delivery;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the gateway's messages from an ActiveMQ queue, grouped by their {@code jobId} property. */
final class JmsReceiver {

    private JmsReceiver() {}

    /**
     * Receives until {@code distinctIds} job ids arrived or the time is up; job id -> its messages in arrival order
     * (more than one: a duplicate delivery).
     */
    static Map<String, List<TextMessage>> receive(Connection connection, String queue, int distinctIds, Duration within)
            throws JMSException {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            Map<String, List<TextMessage>> byJob = new LinkedHashMap<>();
            long end = System.currentTimeMillis() + within.toMillis();
            while (byJob.size() < distinctIds && System.currentTimeMillis() < end) {
                TextMessage message = (TextMessage) consumer.receive(200);
                if (message != null) {
                    byJob.computeIfAbsent(message.getStringProperty("jobId"), id -> new ArrayList<>())
                            .add(message);
                }
            }
            return byJob;
        } finally {
            session.close();
        }
    }

    /** Job id -> how many times it arrived. */
    static Map<String, Integer> counts(Map<String, List<TextMessage>> byJob) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        byJob.forEach((id, messages) -> counts.put(id, messages.size()));
        return counts;
    }
}
