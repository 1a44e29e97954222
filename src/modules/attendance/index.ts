import './attendance.policy';
import './attendance.type';
import './attendance.queries';
import './attendance.mutations';
