import './access.policy';
import './access.type';
import './access.queries';
import './access.mutations';
