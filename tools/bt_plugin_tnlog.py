# bt_plugin_tnlog.py - an example of a trace type of one's own: a
# libbabeltrace2 source plugin in Python that reads a line-based log,
#
#     2026-12-06T10:15:02.123456789 INFO connected to 10.0.0.2
#     2026-12-06T10:15:02.200000000 WARN retrying
#
# (an ISO 8601 UTC time with up to nine decimals, a level, a message),
# and makes each line an event named after its level with the fields
# `level` and `message`, timed on a clock whose origin is the Unix
# epoch.  A line that does not start with a time is an event "line" at
# the previous line's time, the whole line its message, so that nothing
# is lost; a time earlier than the previous one is taken as that one
# (a stream's events never go back in time).
#
# libbabeltrace2 finds it in a directory given to --plugin-path (or in
# BABELTRACE_PLUGIN_PATH); it needs Debian's python3-bt2 and
# libbabeltrace2-python-plugin-provider:
#
#     tracenav --dump --plugin-path=tools --component=src.tnlog.log FILE
#     babeltrace2 --plugin-path=tools --component=src.tnlog.log \
#         --params='path="FILE"'
#
# Copy it, change the pattern and the fields, and the same commands read
# your own format.
import calendar
import re

import bt2

bt2.register_plugin(
    __name__,
    "tnlog",
    description="Line-based logs of the form TIME LEVEL MESSAGE",
    author="The tracenav authors",
    license="MIT",
    version=(1, 0, 0),
)

_LINE = re.compile(
    r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?Z?"
    r"\s+(\S+)\s?(.*)$"
)


def _line_time_ns(match):
    """The ns from the Unix epoch of a matched line's time (UTC)."""
    seconds = calendar.timegm(tuple(int(match.group(i)) for i in range(1, 7)))
    fraction = (match.group(7) or "").ljust(9, "0")
    return seconds * 1000000000 + int(fraction)


class _LogIterator(bt2._UserMessageIterator):
    def __init__(self, config, output_port):
        source = output_port.user_data
        self._source = source
        self._stream = source.trace.create_stream(source.stream_class)
        self._file = open(source.path, "r", errors="replace")
        self._time = 0
        self._begun = False
        self._ended = False

    def _event(self, name, level, message):
        event_class = self._source.event_class(name)
        msg = self._create_event_message(
            event_class, self._stream, default_clock_snapshot=self._time
        )
        msg.event.payload_field["level"] = level
        msg.event.payload_field["message"] = message
        return msg

    def __next__(self):
        if not self._begun:
            self._begun = True
            return self._create_stream_beginning_message(self._stream)
        if self._ended:
            raise StopIteration
        line = self._file.readline()
        if not line:
            self._ended = True
            self._file.close()
            return self._create_stream_end_message(self._stream)
        line = line.rstrip("\n")
        match = _LINE.match(line)
        if not match:
            return self._event("line", "", line)
        self._time = max(self._time, _line_time_ns(match))
        return self._event(match.group(8), match.group(8), match.group(9))


@bt2.plugin_component_class
class _LogSource(
    bt2._UserSourceComponent, name="log", message_iterator_class=_LogIterator
):
    """src.tnlog.log: the events of the log file of parameter `path`."""

    def __init__(self, config, params, obj):
        if "path" not in params:
            raise ValueError('missing parameter "path" (the log file)')
        self.path = str(params["path"])
        trace_class = self._create_trace_class()
        clock = self._create_clock_class(
            name="log", frequency=1000000000, origin_is_unix_epoch=True
        )
        self.stream_class = trace_class.create_stream_class(
            default_clock_class=clock
        )
        self._trace_class = trace_class
        self._event_classes = {}
        self.trace = trace_class()
        self._add_output_port("out", self)

    def event_class(self, name):
        """The event class of that name, made the first time."""
        if name not in self._event_classes:
            # A field class belongs to one event class: one each.
            payload = self._trace_class.create_structure_field_class()
            for member in ("level", "message"):
                payload.append_member(
                    member, self._trace_class.create_string_field_class()
                )
            self._event_classes[name] = self.stream_class.create_event_class(
                name=name, payload_field_class=payload
            )
        return self._event_classes[name]
