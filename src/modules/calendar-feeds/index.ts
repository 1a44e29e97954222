import './calendar-feed.policy';
import './calendar-feed.type';
import './calendar-feed.queries';
import './calendar-feed.mutations';
