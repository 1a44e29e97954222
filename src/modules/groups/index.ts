import './group.policy';
import './group.type';
import './group.queries';
import './group.mutations';
