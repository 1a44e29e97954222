import './gradebook.policy';
import './gradebook.type';
import './gradebook.queries';
import './gradebook.mutations';
