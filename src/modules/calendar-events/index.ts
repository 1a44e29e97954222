import './calendar-event.policy';
import './calendar-event.type';
import './calendar-event.queries';
import './calendar-event.mutations';
