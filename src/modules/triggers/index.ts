import './trigger.policy';
import './trigger.type';
import './trigger.queries';
import './trigger.mutations';
